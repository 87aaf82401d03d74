import { Type, type Static, type TLiteral, type TOptional, type TString, type TUnion } from '@sinclair/typebox';
import { CONTROL_PLANE_STATUSES } from '../../governance/control-plane/schemas.js';
import { AuditFilterQuery } from '../../platform/audit/schemas.js';
import { PageCursorParam } from '../../platform/cursor.js';
import { LangParam } from '../../platform/i18n/index.js';
import { StringEnum } from '../../platform/string-enum.js';
import { form, proof } from '../site/form-schemas.js';

/** Bodies of the console's forms (each carries its CSRF token, language and page to come back to). */

const Id = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const OptionalId = Type.Optional(Type.Union([Id, Type.Literal('')]));
const Reason = Type.String({ minLength: 1, maxLength: 2000 });
const OptionalReason = Type.Optional(Type.String({ maxLength: 2000 }));

export const IdParams = Type.Object({ id: Id });
export const ConsoleQuery = Type.Object({ lang: LangParam }, { additionalProperties: false });
/** The control plane's queue: a page of it, of one status or of all. */
export const ConsolePageQuery = Type.Object(
  { lang: LangParam, cursor: PageCursorParam, status: Type.Optional(StringEnum(CONTROL_PLANE_STATUSES)) },
  { additionalProperties: false },
);
/** The audit log's address: its filters as the GET form sends them (a field left empty is sent empty) and a page. */
export const AuditQuery = Type.Object(
  {
    lang: LangParam,
    cursor: PageCursorParam,
    ...(Object.fromEntries(
      Object.entries(AuditFilterQuery).map(([name, schema]) => [
        name,
        Type.Optional(Type.Union([Type.Required(schema), Type.Literal('')])),
      ]),
    ) as { [K in keyof typeof AuditFilterQuery]: TOptional<TUnion<[TString, TLiteral<''>]>> }),
  },
  { additionalProperties: false },
);

export const PlainConsoleForm = form({});
export const ProposalForm = form({
  title: Type.String({ minLength: 1, maxLength: 200 }),
  rationale: Type.String({ minLength: 1, maxLength: 5000 }),
  /** One `name = value` per line. */
  changes: Type.String({ minLength: 1, maxLength: 5000 }),
});
export const RatifyForm = form({ decision: Type.Union([Type.Literal('RATIFY'), Type.Literal('REJECT')]), ...proof });
export const WithRequestForm = form({ controlPlaneRequestId: OptionalId, reason: OptionalReason });
export const FileRequestForm = form({
  action: Type.Union([
    Type.Literal('governance.activate'),
    Type.Literal('governance.emergency.apply'),
    Type.Literal('governance.emergency.clear'),
  ]),
  target: Id,
  /** The payload as JSON, exactly as the service recommended it or the proposal holds it. */
  payload: Type.String({ minLength: 2, maxLength: 20_000 }),
  reason: Reason,
});
export const ApproveForm = form({ ...proof });
export const CancelForm = form({ reason: OptionalReason });
/** Uses an approved request for the change it names (activate the proposal, apply or clear the emergency measures). */
export const UseRequestForm = form({ reason: OptionalReason });

export type ProofFormBody = Static<typeof ApproveForm>;
export { LangParam };
