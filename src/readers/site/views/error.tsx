import { t, type Lang } from '../../../platform/i18n/index.js';
import { href } from '../links.js';
import { Layout } from './layout.js';

/** A refused or failed page, in the reader's language, with the status it answers. */
export function ErrorPage(props: { lang: Lang; status: number; requestId: string }) {
  const { lang, status } = props;
  const kind = status === 404 ? 'notFound' : status === 429 ? 'tooMany' : status < 500 ? 'badRequest' : 'failed';
  const title = t(lang, `site.error.${kind}`);
  return (
    <Layout lang={lang} title={title} section="story" path="/">
      <h1>{title}</h1>
      <p>{t(lang, `site.error.${kind}.text`)}</p>
      <p class="meta">
        {t(lang, 'site.error.reference')} <code>{props.requestId}</code>
      </p>
      <p>
        <a href={href('/', lang)}>{t(lang, 'site.error.back')}</a>
      </p>
    </Layout>
  );
}
