import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import type { Lang } from '../../platform/i18n/index.js';
import { PolicyUpdateBody, type RewardsPolicy } from '../../rewards/policy/schemas.js';
import { finish } from '../site/form-replies.js';
import { href } from '../site/links.js';
import { sendPage } from '../site/render.js';
import { ConsoleQuery } from './forms.js';
import { actIn, enter, formRoute, HIDDEN, must, refusal, refused, type ConsoleDeps } from './gate.js';
import { PolicyApplyForm, PolicyForm } from './rewards-forms.js';
import { policyChange } from './rewards-policy.js';
import { RewardsPolicyConfirmPage, RewardsPolicyPage } from './views/rewards.js';

type Policy = Static<typeof RewardsPolicy>;

/**
 * Rewards (rewards admins), the policy: its page, and a change through a confirm step showing it. Every action
 * in the rewards area calls the services the API's routes call, as the person (src/web/site/calls.ts).
 */
export const rewardsPolicyRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, deps) => {
  const { rewardsPolicy } = deps.services;
  const actRewards = actIn(deps, 'rewards');
  const guarded = formRoute(app);
  const door = (request: FastifyRequest, reply: FastifyReply, lang: Lang | undefined) =>
    enter(deps, request, reply, lang ?? 'en', 'rewards');

  app.get('/console/rewards', { schema: { ...HIDDEN, querystring: ConsoleQuery } }, async (request, reply) => {
    const visit = door(request, reply, request.query.lang);
    if (!visit) return reply;
    const policy = must(await visit.calls.readPublic(() => rewardsPolicy.current()));
    return sendPage(reply, RewardsPolicyPage, { lang: visit.lang, areas: visit.areas, policy });
  });

  app.post('/console/rewards/policy/preview', { ...guarded, schema: { ...HIDDEN, body: PolicyForm } }, async (request, reply) => {
    const lang = request.body.lang ?? 'en';
    const visit = door(request, reply, lang);
    if (!visit) return reply;
    const policy = must(await visit.calls.readPublic(() => rewardsPolicy.current()));
    const change = policyChange(policy, request.body);
    if ('refused' in change) return finish(request, reply, refused(change.refused, change.params), href('/console/rewards', lang), lang);
    return sendPage(reply, RewardsPolicyConfirmPage, { lang, areas: visit.areas, policy, change, input: request.body });
  });

  app.post('/console/rewards/policy', { ...guarded, schema: { ...HIDDEN, body: PolicyApplyForm } }, (request, reply) =>
    actRewards<Policy>(
      request,
      reply,
      { ...request.body, back: href('/console/rewards', request.body.lang ?? 'en') },
      async ({ calls, actor }) => {
        const current = await calls.readPublic(() => rewardsPolicy.current());
        if (!current.ok) return current;
        // the confirm page showed the change against this version: another change since is shown again, not overwritten
        if (String(current.body.version) !== request.body.baseVersion) return refusal('CONSOLE_POLICY_CHANGED', 409);
        const change = policyChange(current.body, request.body);
        if ('refused' in change) return refusal(change.refused, 409);
        return calls.write(actor, (person, body) => rewardsPolicy.update(person, body), {
          admin: 'rewards',
          body: { schema: PolicyUpdateBody, value: change.body },
        });
      },
      (policy) => ({ kind: 'done', message: 'console.rewards.policyApplied', params: { version: policy.version } }),
    ),
  );
};
