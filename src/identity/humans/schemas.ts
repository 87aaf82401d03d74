import { Type, type Static } from '@sinclair/typebox';
import { DateTime, HumanActorBody } from '../../platform/schemas.js';
import { PROOF_PROVIDERS } from './proof-verifier.js';
import {
  humanProofVerifyExample,
  loginChallengeExample,
  loginSessionExample,
  loginVerifyExample,
  verifiedActionExample,
  worldIdVerifyExample,
} from './examples.js';

/** World ID login, governance verification and multi-provider human proofs. */

const Opaque = (maxLength: number, description: string) =>
  Type.String({ minLength: 1, maxLength, pattern: '^[A-Za-z0-9_:.+/=-]+$', description });

/** The proof fields, as IDKit hands them to the front end. */
const ProofFields = {
  nullifier_hash: Opaque(200, 'World ID: hex field element (0x + up to 64 hex); other providers: their nullifier'),
  merkle_root: Opaque(200, 'The root the proof was made against'),
  proof: Opaque(4096, 'World ID: the packed proof (0x + 512 hex)'),
  verification_level: Type.String({
    minLength: 1,
    maxLength: 40,
    pattern: '^[a-z_]+$',
    description: 'World ID: orb, secure_document, document or device',
  }),
};

const Signal = Type.String({
  maxLength: 1000,
  description: 'The signal the proof was made with (IDKit `signal`); omitted: none (World ID then checks hashToField(""))',
});

export const LoginChallengeBody = Type.Object(
  { ...HumanActorBody },
  {
    title: 'LoginChallengeRequest',
    description: 'Body that asks for a World ID login challenge: the actor fields only (`verified` may be false before the login).',
    additionalProperties: false,
  },
);

export const LoginChallengeResponse = Type.Object(
  {
    challengeId: Type.String(),
    signal: Type.String({ description: 'Give IDKit this signal' }),
    signalHash: Type.String({
      pattern: '^0x[0-9a-f]{64}$',
      description: "World ID's hashToField(signal): what the proof must be bound to",
    }),
    action: Type.String({ description: 'Give IDKit this action (WORLDID_LOGIN_ACTION)' }),
    expiresAt: DateTime,
  },
  {
    title: 'LoginChallenge',
    description:
      'A single-use World ID login challenge for one actorId: give IDKit its `action` and `signal`; it expires 5 minutes after it was made.',
    examples: [loginChallengeExample],
  },
);

export const LoginVerifyBody = Type.Object(
  {
    ...HumanActorBody,
    challengeId: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' }),
    ...ProofFields,
    action: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Optional; when sent, it must be the login action (anything else: 400)' }),
    ),
  },
  {
    title: 'LoginVerifyRequest',
    description: 'Body that completes a World ID login: the challenge and the proof fields IDKit returned.',
    examples: [loginVerifyExample],
    additionalProperties: false,
  },
);
export type LoginVerifyBody = Static<typeof LoginVerifyBody>;

export const LoginVerifyResponse = Type.Object(
  {
    linkedHumanId: Type.String({ description: 'Sign this linkedHumanId with this actorId from now on' }),
    tier: Type.Literal('L3'),
    sessionExpiresAt: Type.String({
      format: 'date-time',
      description: 'Until then the binding of actorId to linkedHumanId counts; log in again after it',
    }),
  },
  {
    title: 'LoginSession',
    description: 'The outcome of a World ID login: the linkedHumanId the actor is now bound to, the tier (L3) and when the binding ends.',
    examples: [loginSessionExample],
  },
);

export const WorldIdVerifyBody = Type.Object(
  {
    ...HumanActorBody,
    action: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'graduate:<storyId>, reward:<storyId> or flag_high_severity:<claimId>',
    }),
    ...ProofFields,
    signal: Type.Optional(Signal),
  },
  {
    title: 'WorldIdVerifyRequest',
    description: 'Body that records a World ID proof of a verified human action (graduate:, reward: or flag_high_severity:).',
    examples: [worldIdVerifyExample],
    additionalProperties: false,
  },
);
export type WorldIdVerifyBody = Static<typeof WorldIdVerifyBody>;

export const HumanProofVerifyBody = Type.Object(
  {
    ...HumanActorBody,
    provider: Type.Union(
      PROOF_PROVIDERS.map((p) => Type.Literal(p)),
      { description: 'world_id (tier L3), passport or phone (tier L2)' },
    ),
    action: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'graduate:<storyId>, reward:<storyId> or flag_high_severity:<claimId>',
    }),
    ...ProofFields,
    signal: Type.Optional(Signal),
  },
  {
    title: 'HumanProofVerifyRequest',
    description: 'Body that records a verified human action proven by World ID (tier L3), passport or phone (tier L2).',
    examples: [humanProofVerifyExample],
    additionalProperties: false,
  },
);
export type HumanProofVerifyBody = Static<typeof HumanProofVerifyBody>;

export const VerifiedActionResponse = Type.Object(
  {
    id: Type.String({ description: 'The verified human action, accepted once by the operation it names' }),
    action: Type.String(),
    provider: Type.String(),
    linkedHumanId: Type.String({
      description: "The actor's linked human, who alone can use the action where the operation is personal (flags, reward votes)",
    }),
    tier: Type.Union([Type.Literal('L2'), Type.Literal('L3')], {
      description: "The human's recorded tier after this proof (never lowered)",
    }),
    sessionExpiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'The binding session, moved on by this proof (null: a binding without a session)',
    }),
    createdAt: DateTime,
  },
  {
    title: 'VerifiedAction',
    description:
      'A verified human action as recorded: the action, the provider that proved it, the linked human it belongs to and the tier after the proof. The operation it names consumes it once.',
    examples: [verifiedActionExample],
  },
);
