import { Type, type Static, type TProperties } from '@sinclair/typebox';
import { LangParam } from '../../platform/i18n/index.js';
import { ClaimId } from '../../newsroom/common/schemas.js';
import { CSRF_FIELD } from './session.js';

/**
 * A page of this site to come back to (a form's `back`, the login's `next`), as a browser sends its address:
 * printable ASCII, everything else percent-encoded. A redirect's Location header can carry nothing else (a
 * character past Latin-1 or a control character there was a 500); safeBack then keeps it on the site.
 */
const PagePath = Type.String({ maxLength: 2000, pattern: '^[\\x21-\\x7e]*$' });

/**
 * Bodies of the site's forms (application/x-www-form-urlencoded). Every form carries its CSRF token, the page's
 * language and the page to come back to; unknown fields are refused like the API's (400 page).
 */
export const form = <P extends TProperties>(fields: P) =>
  Type.Object(
    {
      [CSRF_FIELD]: Type.String({ maxLength: 200 }),
      lang: LangParam,
      back: Type.Optional(PagePath),
      ...fields,
    },
    { additionalProperties: false },
  );

/** A World ID proof IDKit filled in (World ID mode), or "prove" alone (the development login). */
export const proof = {
  prove: Type.Optional(Type.Literal('1')),
  nullifier_hash: Type.Optional(Type.String({ maxLength: 200 })),
  merkle_root: Type.Optional(Type.String({ maxLength: 200 })),
  proof: Type.Optional(Type.String({ maxLength: 2000 })),
  verification_level: Type.Optional(Type.String({ maxLength: 40 })),
};

export const PlainForm = form({});
/** Clearing the history: `confirm` comes from the confirmation page only (without it, the page asks first). */
export const HistoryClearForm = form({ confirm: Type.Optional(Type.Literal('1')) });
export const DevLoginForm = form({ name: Type.String({ minLength: 1, maxLength: 64 }) });
export const LoginFinishForm = form({
  nullifier_hash: Type.String({ minLength: 1, maxLength: 200 }),
  merkle_root: Type.String({ minLength: 1, maxLength: 200 }),
  proof: Type.String({ minLength: 1, maxLength: 2000 }),
  verification_level: Type.String({ minLength: 1, maxLength: 40 }),
});
export const NameForm = form({ name: Type.String({ maxLength: 200 }) });
export const CommentForm = form({
  body: Type.String({ minLength: 1, maxLength: 5000 }),
  /** A reply names the comment it answers. */
  parentId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});
export const CommentEditForm = form({ body: Type.String({ minLength: 1, maxLength: 5000 }) });
/** Deleting a comment: `confirm` comes from the confirmation step only (without it, nothing is deleted). */
export const CommentDeleteForm = form({ confirm: Type.Optional(Type.Literal('1')) });
export const VoteForm = form({ vote: Type.Union([Type.Literal('UP'), Type.Literal('DOWN')]), ...proof });
export const FlagForm = form({
  severity: Type.Union([Type.Literal('LOW'), Type.Literal('MEDIUM'), Type.Literal('HIGH')]),
  claimId: Type.Optional(Type.Union([ClaimId, Type.Literal('')])),
  reason: Type.String({ minLength: 1, maxLength: 2000 }),
  ...proof,
});
export const TopicForm = form({
  topic: Type.String({ minLength: 1, maxLength: 300 }),
  kind: Type.Optional(Type.Union([Type.Literal('ROOM'), Type.Literal('TAG')])),
});
export const PreferencesForm = form({
  siteLang: Type.Union([Type.Literal('en'), Type.Literal('es'), Type.Literal('fr'), Type.Literal('de'), Type.Literal('zh-Hans')]),
  personalization: Type.Optional(Type.Literal('1')),
});
export type ProofForm = Static<typeof VoteForm> | Static<typeof FlagForm>;

export const LoginQuery = Type.Object({ lang: LangParam, next: Type.Optional(PagePath) }, { additionalProperties: false });
