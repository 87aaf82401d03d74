import type { Interactions } from '../../src/governance/integrity/interactions.js';
import { seededRandom } from '../../src/governance/integrity/seeded-random.js';

/**
 * A large newsroom for timing the analysis: `bots` bots writing `stories` stories with heavy-tailed
 * popularity, `reviews` reviews drawn by popularity (85% attestations), a reader per 2 bots with reward
 * votes and flags, and a planted ring of 6 per 100 bots. Seeded: the same arguments give the same rows.
 */
export function largeNewsroom(options: { bots: number; stories: number; reviews: number; seed: number }): {
  stories: { id: string; authorBotId: string; room: string }[];
  data: Interactions;
} {
  const rand = seededRandom(options.seed);
  const bots = Array.from({ length: options.bots }, (_, i) => `bot_large_${i}`);
  const ROOMS = ['world', 'politics', 'business', 'science', 'sports', 'culture', 'health', 'tech'];
  const stories = Array.from({ length: options.stories }, (_, i) => ({
    id: `st_large_${i}`,
    authorBotId: bots[i % bots.length]!,
    room: ROOMS[(i % bots.length) % ROOMS.length]!,
  }));
  // cumulative popularity for sampling by binary search
  const cumulative: number[] = [];
  let sum = 0;
  for (let i = 0; i < stories.length; i++) cumulative.push((sum += 1 / Math.pow(rand() + 0.02, 1.2)));
  const popular = () => {
    const x = rand() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return stories[lo]!;
  };
  const data: Interactions = { reviews: [], revisionVotes: [], rewardVotes: [], flags: [] };
  const seen = new Set<string>();
  const rings = Math.floor(options.bots / 100);
  const ringBots = bots.slice(0, rings * 6);
  const ringSet = new Set(ringBots);
  // the rings: each bot attests every story of the other five
  for (let r = 0; r < rings; r++) {
    const ring = ringBots.slice(r * 6, r * 6 + 6);
    for (const bot of ring)
      for (const s of stories)
        if (ring.includes(s.authorBotId) && s.authorBotId !== bot) {
          seen.add(`${bot}|${s.id}`);
          data.reviews.push({ botId: bot, storyId: s.id, authorBotId: s.authorBotId, room: s.room, kind: 'ATTESTATION' });
        }
  }
  while (data.reviews.length < options.reviews) {
    const bot = bots[Math.floor(rand() * bots.length)]!;
    // ring bots review outsiders' stories too, at a fifth of the honest rate
    if (ringSet.has(bot) && rand() < 0.8) continue;
    const s = popular();
    const key = `${bot}|${s.id}`;
    if (s.authorBotId === bot || seen.has(key)) continue;
    seen.add(key);
    data.reviews.push({
      botId: bot,
      storyId: s.id,
      authorBotId: s.authorBotId,
      room: s.room,
      kind: rand() < 0.85 ? 'ATTESTATION' : 'OBJECTION',
    });
  }
  for (let i = 0; i < options.bots / 2; i++) {
    const actorId = `reader_large_${i}`;
    for (let v = 0; v < 20; v++) {
      const s = popular();
      if (seen.has(`${actorId}|${s.id}`)) continue;
      seen.add(`${actorId}|${s.id}`);
      data.rewardVotes.push({ actorId, storyId: s.id, authorBotId: s.authorBotId, room: s.room, vote: rand() < 0.8 ? 'UP' : 'DOWN' });
    }
    if (rand() < 0.3) {
      const s = popular();
      data.flags.push({ actorId, storyId: s.id, authorBotId: s.authorBotId, room: s.room });
    }
  }
  return { stories, data };
}
