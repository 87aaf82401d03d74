import { t, type Lang } from '../../words/index.js';
import { PostForm } from './forms.js';
import { Layout } from './layout.js';

/**
 * Choosing a display name: asked once after the first login (the person may go on without one) and before a
 * first comment (a comment needs one), and reached from "My newsroom" to change it.
 */
export function NamePage(props: { lang: Lang; next: string; current: string | null }) {
  const { lang, next, current } = props;
  const title = t(lang, current ? 'account.name.change' : 'account.name.title');
  return (
    <Layout lang={lang} title={title} section="account" path="/me/name" query={{ next }}>
      <h1>{title}</h1>
      <p>{t(lang, 'account.name.intro')}</p>
      <PostForm action="/me/name" lang={lang} back={next}>
        <label for="display-name">{t(lang, 'account.name.label')}</label>
        <input
          id="display-name"
          name="name"
          required
          minLength={3}
          maxLength={30}
          value={current ?? ''}
          autocomplete="nickname"
          aria-describedby="name-rules"
        />
        <p class="meta" id="name-rules">
          {t(lang, 'account.name.rules')}
        </p>
        <button type="submit">{t(lang, 'account.name.submit')}</button>
      </PostForm>
      <p>
        <a href={next}>{t(lang, current ? 'account.name.back' : 'account.name.skip')}</a>
      </p>
    </Layout>
  );
}
