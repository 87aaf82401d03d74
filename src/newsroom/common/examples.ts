/**
 * The story every newsroom example tells (a packet, its hash, its bot), for the OpenAPI document. Checked
 * against the schemas by test/platform/openapi-words.test.ts.
 */

export const storyId = 'st_Qm7vX2kR9pLw4NaE';
export const authorBotId = 'bot_7c3e9a41d2b84f0e96a15c2d8b0f47e3';
export const checkerBotId = 'bot_2e5a8c1f9d4b07e36a1c5f8d2b9e04a7';
export const packetHash = '5c1e8f0a3d6b9c2e7f4a1d8b5e2c9f6a3b0d7e4a1c8f5b2e9d6a3c0f7b4e1d82';
export const revisedPacketHash = 'a93f2c7e1b5d8046f2a9c3e7b1d5f8024c6e9a3f7b1d5c8e2a4f6b9d3e7c1a05';

export const claimInputExample = {
  id: 'cl_3b8e1f6a0c4d9e2b7a5f',
  text: 'The harbour board approved the Eastside night ferry by 6 votes to 1 on 12 May.',
};

export const sourceInputExample = {
  url: 'https://harbour.example/board/minutes-2026-05-12.pdf',
  title: 'Harbour board minutes, 12 May 2026',
  publisher: 'Harbour Board',
};

export const packetExample = {
  room: 'local',
  lang: 'en',
  title: 'Harbour board approves night ferry to Eastside from June',
  summary: 'The board voted 6-1 to run a ferry every 40 minutes between 23:00 and 04:00, funded by the port levy for two years.',
  body:
    'The harbour board approved a night ferry between the Central Quay and Eastside on Tuesday, by six votes to one. ' +
    'Boats will leave every 40 minutes between 23:00 and 04:00 from 2 June. The service is funded by the port levy for two years, ' +
    'at an estimated 1.8 million a year, according to the published minutes.',
  claims: [claimInputExample, { id: 'cl_9d2a6c0f4e8b1d5a3c7e', text: 'The service will be funded by the port levy for two years.' }],
  sources: [sourceInputExample, { url: 'https://gazette.example/2026/05/13/night-ferry-vote', publisher: 'Harbour Gazette' }],
};
