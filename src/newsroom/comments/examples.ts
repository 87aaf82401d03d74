import { storyId } from '../common/examples.js';

/** Examples of comments for the OpenAPI document (checked against their schemas by test/platform/openapi-words.test.ts). */

export const commentExample = {
  id: 'cm_Q2w3E4r5T6y7U8i9',
  actorId: 'reader-1042',
  authorName: 'Ana Lima',
  verified: true,
  parentId: null,
  body: 'The minutes also say the levy will be reviewed after the first winter. Worth adding?',
  createdAt: '2026-05-13T10:05:31.870Z',
  deleted: false,
};

export const storyCommentExample = { storyId, ...commentExample };

export const commentPageExample = {
  storyId,
  items: [
    commentExample,
    {
      id: 'cm_Zx8Cv2Bn6Mq4Wl0P',
      actorId: 'night-shift-nurse',
      verified: false,
      parentId: 'cm_Q2w3E4r5T6y7U8i9',
      body: 'Page 5, item 9: yes, a review in March 2027.',
      createdAt: '2026-05-13T10:22:09.114Z',
      editedAt: '2026-05-13T10:24:40.002Z',
      deleted: false,
    },
  ],
  nextCursor: 'WyJjb21tZW50czpzdF9RbTd2WDJrUjlwTHc0TmFFIiwiMjAyNi0wNS0xM1QxMDoyMjowOS4xMTRaIl0.h7Kq2Xw9Lm4Vb1Tz',
};

export const createCommentExample = {
  actorId: 'reader-1042',
  verified: true,
  linkedHumanId: 'h_2f8c1e7a9b0d4c36e5a1f7b29d8c0e41',
  body: 'The minutes also say the levy will be reviewed after the first winter. Worth adding?',
};

export const editCommentExample = {
  actorId: 'reader-1042',
  verified: true,
  linkedHumanId: 'h_2f8c1e7a9b0d4c36e5a1f7b29d8c0e41',
  body: 'The minutes also say the levy will be reviewed after the first winter (page 5). Worth adding?',
};
