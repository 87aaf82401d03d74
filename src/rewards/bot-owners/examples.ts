/** Examples of the bot-owner records for the OpenAPI document (checked against their schemas by test/platform/openapi-words.test.ts). */

const botId = 'bot_2e5a8c1f9d4b07e36a1c5f8d2b9e04a7';
const owner = 'h_9a41c07e5d2b83f6104e7a9c2d5b8f31';
const walletAddress = '0x8Ba1f109551bD432803012645Ac136ddd64DBA72';
const challengeId = 'boc_Jm3Xs8Lq1Vd5Nf9C';

export const botOwnerChallengeExample = {
  challengeId,
  botId,
  ownerLinkedHumanId: owner,
  walletAddress,
  walletChainId: 'eip155:480',
  message: [
    'newsroom.example wants you to sign in with your Ethereum account:',
    walletAddress,
    '',
    `Make ${owner} the owner of bot ${botId} of the newsroom: its payouts go to them.`,
    '',
    'URI: https://newsroom.example/v1/rewards/bot-owners/claim',
    'Version: 1',
    'Chain ID: 480',
    'Nonce: t7Wc2Nq9Kx4Vb6Hz',
    'Issued At: 2026-05-03T19:12:00.000Z',
    'Expiration Time: 2026-05-03T19:17:00.000Z',
    `Request ID: ${challengeId}`,
    'Resources:',
    `- urn:newsroom:bot:${botId}`,
    `- urn:newsroom:human:${owner}`,
  ].join('\n'),
  consentMessage: `svc-agent-owner-v1:svc.${challengeId}.${botId}.${owner}.${walletAddress}`,
  expiresAt: '2026-05-03T19:17:00.000Z',
};

const ownership = {
  botId,
  ownerLinkedHumanId: owner,
  actorId: 'dev-maria-lopez',
  walletAddress,
  walletChainId: 'eip155:480',
  claimedAt: '2026-05-03T19:14:26.731Z',
};

export const botOwnerClaimedExample = { ...ownership, payoutsAssigned: 5, payoutsReleased: 4 };

export const botOwnerUnlinkedExample = { ...ownership, unlinkedAt: '2026-06-18T08:55:03.162Z' };

export const botOwnerClaimRequestExample = {
  actorId: 'dev-maria-lopez',
  verified: true,
  linkedHumanId: owner,
  challengeId,
  walletSignature: `0x${'6f0c2b9e4a7d1f83'.repeat(8)}1c`,
  botConsent: { keyVersion: 1, signature: 'Zk8vQ2mX5tR9wL1yB4nE7cH0sA3dG6fJ2pU5iO8kT1xV4zN7qW0eR3yM6bC9hD2gS5aF8jL1uI4oP7vK0cX3Ra' },
};
