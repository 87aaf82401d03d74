import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApproveBody, CancelBody, CreateRequestBody, type ControlPlaneRequest } from '../../governance/control-plane/schemas.js';
import { ActivateBody, ClearBody, EvaluateBody, type StateResponse } from '../../governance/parameters/schemas.js';
import type { CallResult } from '../site/calls.js';
import type { Flash } from '../site/session.js';
import { sendPage } from '../site/render.js';
import { ApproveForm, CancelForm, ConsolePageQuery, ConsoleQuery, FileRequestForm, IdParams, UseRequestForm } from './forms.js';
import { actIn, enter, formRoute, HIDDEN, must, refusal, type ConsoleDeps, type ConsoleVisit } from './gate.js';
import { proofOf } from './proofs.js';
import { allowlistKeyOf, consoleActor } from './access.js';
import { ControlPlaneListPage, ControlPlaneRequestPage } from './views/control-plane.js';

/** What a request's use answers: which change it made, as the flash words it. */
type Used = { flash: Flash };

/**
 * The control plane: the queue of requests, and one request as its approvers see it (what it changes in words,
 * before → after with each parameter's meaning and range; the exact payload and its hash; who filed and approved
 * it, by display name), with approve (a World ID proof bound to `control_plane_approve:<id>`, made in the page),
 * the change an approved request makes (activate the proposal, apply or clear the emergency measures) and cancel.
 */
export const controlPlaneRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, deps) => {
  const { controlPlane, governance, emergency, names } = deps.services;
  const actControlPlane = actIn(deps, 'control-plane');
  const guarded = formRoute(app);

  /**
   * What the pages show around the requests: each person's display name by their key, the requests waiting for
   * this person's approval, and the parameters in force (what a change changes from).
   */
  async function context(visit: ConsoleVisit, items: readonly ControlPlaneRequest[], withState: boolean) {
    const ids = items.map((item) => item.id);
    const [actors, waiting, state] = await Promise.all([
      controlPlane.actorsOf(ids),
      visit.roles.approver ? controlPlane.waitingFor(consoleActor(visit.reader)) : Promise.resolve([]),
      withState ? governance.state().then((s): StateResponse | null => s) : Promise.resolve(null),
    ]);
    const byActor = await names.namesOf(actors.values());
    const people: Record<string, string> = {};
    for (const [key, actorId] of actors) {
      const name = byActor.get(actorId);
      if (name) people[key] = name;
    }
    const current: Record<string, number> = {};
    for (const parameter of state?.parameters ?? []) current[parameter.name] = parameter.value;
    return { people, waiting: new Set(waiting), current };
  }

  app.get('/console/control-plane', { schema: { ...HIDDEN, querystring: ConsolePageQuery } }, async (request, reply) => {
    const visit = enter(deps, request, reply, request.query.lang ?? 'en', 'control-plane');
    if (!visit) return reply;
    const status = request.query.status;
    const page = must(
      await visit.calls.read(visit.actor, () => controlPlane.list({ status, cursor: request.query.cursor, limit: 20 }, 'governance'), {
        admin: 'content',
      }),
    );
    const open = page.items.some((item) => item.status === 'PENDING' || item.status === 'EXECUTED');
    const { people, waiting, current } = await context(visit, page.items, open);
    return sendPage(reply, ControlPlaneListPage, {
      ...visit,
      page,
      status: status ?? null,
      approver: visit.roles.approver,
      people,
      waiting,
      current,
    });
  });

  app.get('/console/control-plane/:id', { schema: { ...HIDDEN, params: IdParams, querystring: ConsoleQuery } }, async (request, reply) => {
    const visit = enter(deps, request, reply, request.query.lang ?? 'en', 'control-plane');
    if (!visit) return reply;
    const item = must(await visit.calls.read(visit.actor, () => controlPlane.get(request.params.id), { admin: 'content' }));
    // money requests (settlement runs, batch finalizes) are the rewards pages' own: not a governance change
    if (item.action === 'settlement.run' || item.action === 'batch.finalize')
      must({ ok: false, status: 404, failure: { code: 'NOT_FOUND' } });
    const { people, waiting, current } = await context(visit, [item], item.status === 'PENDING' || item.status === 'EXECUTED');
    return sendPage(reply, ControlPlaneRequestPage, {
      ...visit,
      item,
      approver: visit.roles.approver,
      me: allowlistKeyOf(visit.reader),
      people,
      waitingForMe: waiting.has(item.id),
      current,
    });
  });

  app.post('/console/control-plane/requests', { ...guarded, schema: { ...HIDDEN, body: FileRequestForm } }, (request, reply) =>
    actControlPlane<ControlPlaneRequest>(
      request,
      reply,
      request.body,
      async ({ calls, actor }) => {
        let payload: unknown;
        try {
          payload = JSON.parse(request.body.payload);
        } catch {
          return refusal('CONSOLE_PAYLOAD_INVALID');
        }
        const { action, target, reason } = request.body;
        return calls.write(actor, (person, body) => controlPlane.create(person, body), {
          admin: 'content',
          // the payload is any JSON the person typed: the route's schema below refuses what is not an object
          body: { schema: CreateRequestBody, value: { action, target, payload: payload as CreateRequestBody['payload'], reason } },
        });
      },
      (item) => ({ kind: 'done', message: 'console.controlPlane.filed', params: { id: item.id } }),
    ),
  );

  app.post(
    '/console/control-plane/:id/approve',
    { ...guarded, schema: { ...HIDDEN, params: IdParams, body: ApproveForm } },
    (request, reply) =>
      actControlPlane<ControlPlaneRequest>(
        request,
        reply,
        request.body,
        async ({ calls, actor, reader }) => {
          const proof = proofOf(deps.mode, reader, request.body, `control_plane_approve:${request.params.id}`);
          if (!proof) return refusal('CONSOLE_PROOF_REQUIRED');
          return calls.write(actor, (person, body) => controlPlane.approve(person, request.params.id, body), {
            body: { schema: ApproveBody, value: { ...proof } },
          });
        },
        (item) => ({
          kind: 'done',
          message: item.status === 'EXECUTED' ? 'console.controlPlane.executed' : 'console.controlPlane.approved',
          params: { count: item.approvalCount, required: item.approvalsRequired },
        }),
      ),
  );

  /**
   * An approved (EXECUTED) request used for the change it names, from the request's own page: the proposal it
   * targets is activated, or the emergency measures are applied or cleared, with this request's id, through the
   * same services and checks as the governance routes (the gate consumes the request with the change).
   */
  app.post(
    '/console/control-plane/:id/use',
    { ...guarded, schema: { ...HIDDEN, params: IdParams, body: UseRequestForm } },
    (request, reply) =>
      actControlPlane<Used>(
        request,
        reply,
        request.body,
        async ({ calls, actor }): Promise<CallResult<Used>> => {
          const id = request.params.id;
          const read = await calls.read(actor, () => controlPlane.get(id), { admin: 'content' });
          if (!read.ok) return read;
          const item = read.body;
          // a money request is used by its run or finalize, on the rewards pages
          if (item.action === 'settlement.run' || item.action === 'batch.finalize')
            return { ok: false, status: 409, failure: { code: 'CONTROL_PLANE_REQUEST_MISMATCH' } };
          if (item.action === 'governance.activate') {
            const done = await calls.write(actor, (person, body) => governance.activate(person, item.target, body), {
              admin: 'content',
              body: { schema: ActivateBody, value: { controlPlaneRequestId: id } },
            });
            return done.ok
              ? {
                  ...done,
                  body: { flash: { kind: 'done', message: 'console.governance.activated', params: { id: done.body.proposal.id } } },
                }
              : done;
          }
          if (item.action === 'governance.emergency.apply') {
            const done = await calls.write(actor, (person, body) => emergency.evaluate(person, body), {
              admin: 'content',
              body: { schema: EvaluateBody, value: { controlPlaneRequestId: id } },
            });
            if (!done.ok) return done;
            const { mutatingApplied, tripped } = done.body;
            const message = mutatingApplied ? 'console.governance.emergencyApplied' : 'CONSOLE_NOT_APPLIED';
            return { ...done, body: { flash: { kind: mutatingApplied ? 'done' : 'refused', message, params: { count: tripped.length } } } };
          }
          const reason = request.body.reason?.trim();
          const done = await calls.write(actor, (person, body) => emergency.clear(person, body), {
            admin: 'content',
            body: { schema: ClearBody, value: { controlPlaneRequestId: id, ...(reason ? { reason } : {}) } },
          });
          return done.ok ? { ...done, body: { flash: { kind: 'done', message: 'console.governance.cleared' } } } : done;
        },
        (used) => used.flash,
      ),
  );

  app.post(
    '/console/control-plane/:id/cancel',
    { ...guarded, schema: { ...HIDDEN, params: IdParams, body: CancelForm } },
    (request, reply) =>
      actControlPlane(
        request,
        reply,
        request.body,
        ({ calls, actor }) =>
          calls.write(actor, (person, body) => controlPlane.cancel(person, request.params.id, body), {
            body: { schema: CancelBody, value: request.body.reason ? { reason: request.body.reason } : {} },
          }),
        () => ({ kind: 'done', message: 'console.controlPlane.cancelled' }),
      ),
  );
};
