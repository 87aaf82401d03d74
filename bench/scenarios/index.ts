import { agentJoin } from './agent-join.js';
import { healthz } from './healthz.js';
import { hostileBody } from './hostile-body.js';
import { humanPreferences } from './human-preferences.js';
import { instancesStory } from './instances.js';
import { mixedReads } from './mixed-reads.js';
import { newsroomReads } from './newsroom-reads.js';
import { sitePages } from './site-pages.js';
import type { Scenario } from './types.js';

/** Every scenario, in the order `npm run bench` runs them. Add new ones here. */
export const scenarios: readonly Scenario[] = [
  healthz,
  agentJoin,
  humanPreferences,
  hostileBody,
  ...newsroomReads,
  ...mixedReads,
  ...sitePages,
  instancesStory,
];
