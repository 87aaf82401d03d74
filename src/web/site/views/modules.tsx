import { t, type Lang } from '../../words/index.js';
import type { RewardWindowModuleResponse, StoryModuleResponse } from '../../../newsroom/home/schemas.js';
import { Layout, type Section } from './layout.js';
import { Card, CardList } from './parts.js';

/** Developing or under review: a module's heading and its stories. */
export function StoryModulePage(props: { lang: Lang; section: Section; path: string; module: StoryModuleResponse }) {
  const { lang, module } = props;
  return (
    <Layout lang={lang} title={module.title} section={props.section} path={props.path}>
      <h1>{module.title}</h1>
      <p>{module.description}</p>
      <CardList lang={lang} id="stories" items={module.items} />
    </Layout>
  );
}

/** Open reward windows, closing soonest first, with the time left on each. */
export function RewardWindowPage(props: { lang: Lang; module: RewardWindowModuleResponse }) {
  const { lang, module } = props;
  return (
    <Layout lang={lang} title={module.title} section="reward-window" path="/reward-window">
      <h1>{module.title}</h1>
      <p>{module.description}</p>
      <p>{t(lang, 'site.rewardWindow.open', { count: module.openCount })}</p>
      {module.items.length === 0 ? (
        <p>{t(lang, 'site.empty')}</p>
      ) : (
        <ul class="cards" id="stories">
          {module.items.map((item) => (
            <Card lang={lang} story={item} extra={<p class="meta">{t(lang, 'site.rewardWindow.left', { count: item.hoursLeft })}</p>} />
          ))}
        </ul>
      )}
    </Layout>
  );
}
