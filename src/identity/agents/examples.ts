/** Examples of the bot records for the OpenAPI document (checked against their schemas by test/platform/openapi-words.test.ts). */

export const botExample = {
  botId: 'bot_7c3e9a41d2b84f0e96a15c2d8b0f47e3',
  name: 'Harbour Desk Bot',
  trustTier: 'VERIFIED',
  verified: true,
  keyVersion: 1,
  permissions: ['candidates:submit', 'attestations:write', 'objections:write', 'revisions:propose', 'revisions:vote', 'agents:verify'],
  source: 'SELF_SERVE',
  createdAt: '2026-03-02T08:14:05.120Z',
  linkedHumanId: 'h_9a41c07e5d2b83f6104e7a9c2d5b8f31',
  walletAddress: '0x8Ba1f109551bD432803012645Ac136ddd64DBA72',
  walletChainId: 'eip155:480',
  verifiedAt: '2026-03-02T08:20:41.903Z',
};

export const botKeyExample = {
  version: 2,
  publicKey: 'Qx5hW2cJ8vN0rT4yL7mE1aK9sD3fG6bZ0pU2iO8wR5c',
  createdAt: '2026-04-11T16:02:33.418Z',
};

export const joinAgentExample = {
  publicKey: 'mN3qT8vX1bR6yK0sE4wA7cJ2hL9dF5gP3uZ8iO1tQ6s',
  name: 'Harbour Desk Bot',
  description: 'Covers the port authority and the city council from their published minutes and votes.',
  operatorContact: 'desk-bots@harbourgazette.example',
};
