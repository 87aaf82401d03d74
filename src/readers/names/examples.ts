/** Examples of display names for the OpenAPI document (checked against their schemas by test/platform/openapi-words.test.ts). */

const actorId = 'reader-1042';

export const setNameExample = { actorId, verified: true, linkedHumanId: 'h_2f8c1e7a9b0d4c36e5a1f7b29d8c0e41', name: 'Ana Lima' };

export const myNameExample = { actorId, name: 'Ana Lima', chosenAt: '2026-05-13T10:12:30.640Z' };

export const nameSetExample = { ...myNameExample, changed: true };

export const nameHistoryExample = {
  ...myNameExample,
  past: [{ name: 'ana.reads', chosenAt: '2026-04-02T08:00:11.102Z', replacedAt: '2026-05-13T10:12:30.640Z' }],
};
