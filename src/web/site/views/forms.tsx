import type { ComponentChildren } from 'preact';
import { isLabelKey, t, type Lang, type LabelKey } from '../../words/index.js';
import type { Flash } from '../session.js';
import { CSRF_FIELD } from '../session.js';
import { useVisitor } from '../visitor.js';

/**
 * A state-changing form of the site: POST to the site's own path, with this session's CSRF token and the page
 * to come back to. It works without JavaScript (the server answers with a redirect back to `back`).
 */
export function PostForm(props: { action: string; lang: Lang; back: string; class?: string; children: ComponentChildren }) {
  const { csrf } = useVisitor();
  return (
    <form method="post" action={props.action} class={props.class}>
      <input type="hidden" name={CSRF_FIELD} value={csrf ?? ''} />
      <input type="hidden" name="lang" value={props.lang} />
      <input type="hidden" name="back" value={props.back} />
      {props.children}
    </form>
  );
}

/** What the form just sent came to, as a sentence: a confirmation, or the refusal in plain words. */
export function FlashMessage(props: { lang: Lang; flash: Flash | null }) {
  const { lang, flash } = props;
  if (!flash) return null;
  return (
    <p class={`flash ${flash.kind}`} role={flash.kind === 'refused' ? 'alert' : 'status'}>
      {flashText(lang, flash)}
    </p>
  );
}

/** The words of a flash: its own sentence, or the refusal's (the API's code named when the site has no words for it). */
export function flashText(lang: Lang, flash: Flash): string {
  const params = { ...(flash.params ?? {}), seconds: flash.retryAfterSeconds ?? 60 };
  if (flash.kind === 'done') return t(lang, flash.message as LabelKey, params);
  const key = `account.refused.${flash.message}`;
  return isLabelKey(lang, key) ? t(lang, key, params) : t(lang, 'account.refused', { code: flash.message });
}
