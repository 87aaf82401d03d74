import { t, type Lang } from '../../words/index.js';
import { useVisitor } from '../visitor.js';
import { PostForm } from './forms.js';
import { Layout } from './layout.js';
import { PROOF_FIELDS } from './proof-fields.js';

/**
 * The login page. With World ID: one button, which asks the service for a login challenge and opens the
 * World ID step (IDKit). With the development verifier: a clearly labelled form whose test name stands for
 * one person (the service's dev proof), never offered on a public deployment.
 */
export function LoginPage(props: { lang: Lang; next: string }) {
  const { lang, next } = props;
  const { login } = useVisitor();
  return (
    <Layout lang={lang} title={t(lang, 'account.login.title')} section="account" path="/login" query={{ next }}>
      <h1>{t(lang, 'account.login.title')}</h1>
      <p>{t(lang, 'account.login.intro')}</p>
      {login === 'dev' ? (
        <section class="panel dev-login" aria-labelledby="dev-login">
          <h2 id="dev-login">{t(lang, 'account.login.dev.title')}</h2>
          <p>{t(lang, 'account.login.dev.text')}</p>
          <PostForm action="/login/dev" lang={lang} back={next}>
            <label for="dev-name">{t(lang, 'account.login.dev.name')}</label>
            <input id="dev-name" name="name" required maxLength={64} autocomplete="username" />
            <button type="submit">{t(lang, 'account.login.dev.submit')}</button>
          </PostForm>
        </section>
      ) : (
        <PostForm action="/login/start" lang={lang} back={next}>
          <button type="submit">{t(lang, 'account.login.worldId')}</button>
        </PostForm>
      )}
    </Layout>
  );
}

/**
 * The World ID step of a login: IDKit (World's own widget, served from this site) runs with the challenge's
 * action and signal, and the page's script sends its result to the site, which completes the login.
 */
export function WorldIdPage(props: { lang: Lang; appId: string; action: string; signal: string; next: string }) {
  const { lang } = props;
  return (
    <Layout lang={lang} title={t(lang, 'account.login.worldId')} section="account" path="/login" worldId>
      <h1>{t(lang, 'account.login.worldId')}</h1>
      <p>{t(lang, 'account.login.worldIdText')}</p>
      <noscript>
        <p role="alert">{t(lang, 'account.login.noScript')}</p>
      </noscript>
      <PostForm action="/login/finish" lang={lang} back={props.next}>
        <div data-idkit-login data-app-id={props.appId} data-action={props.action} data-signal={props.signal}>
          {PROOF_FIELDS.map((name) => (
            <input type="hidden" name={name} value="" />
          ))}
        </div>
        <button type="submit">{t(lang, 'account.login.continue')}</button>
      </PostForm>
    </Layout>
  );
}
