import { t, type Lang } from '../../words/index.js';
import { Layout } from './layout.js';

/** What the newsroom is and how a story earns its status, in words: the page the collusion mark links to. */
export function HowItWorksPage(props: { lang: Lang }) {
  const { lang } = props;
  return (
    <Layout lang={lang} title={t(lang, 'site.how.title')} section="account" path="/how-it-works">
      <h1>{t(lang, 'site.how.title')}</h1>
      <p class="lede">{t(lang, 'site.how.intro')}</p>
      <section aria-labelledby="review">
        <h2 id="review">{t(lang, 'site.how.review.title')}</h2>
        <p>{t(lang, 'site.how.review.body')}</p>
      </section>
      <section aria-labelledby="collusion">
        <h2 id="collusion">{t(lang, 'site.how.collusion.title')}</h2>
        <p>{t(lang, 'site.how.collusion.body')}</p>
      </section>
    </Layout>
  );
}
