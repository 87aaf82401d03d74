import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApproveBody, CancelBody, CreateRequestBody, type ControlPlaneRequest } from '../../governance/control-plane/schemas.js';
import { sendPage } from '../site/render.js';
import { ApproveForm, CancelForm, ConsolePageQuery, ConsoleQuery, FileRequestForm, IdParams } from './forms.js';
import { actIn, enter, formRoute, HIDDEN, must, refusal, type ConsoleDeps } from './gate.js';
import { proofOf } from './proofs.js';
import { allowlistKeyOf } from './access.js';
import { ControlPlaneListPage, ControlPlaneRequestPage } from './views/control-plane.js';

/**
 * The control plane: the queue of requests, and one request as its approvers see it (the exact payload and
 * its hash, who approved when), with approve (a World ID proof bound to `control_plane_approve:<id>`, made in
 * the page) and cancel.
 */
export const controlPlaneRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, deps) => {
  const { controlPlane } = deps.services;
  const actControlPlane = actIn(deps, 'control-plane');
  const guarded = formRoute(app);

  app.get('/console/control-plane', { schema: { ...HIDDEN, querystring: ConsolePageQuery } }, async (request, reply) => {
    const visit = enter(deps, request, reply, request.query.lang ?? 'en', 'control-plane');
    if (!visit) return reply;
    const status = request.query.status;
    const page = must(
      await visit.calls.read(visit.actor, () => controlPlane.list({ status, cursor: request.query.cursor, limit: 20 }), {
        admin: 'content',
      }),
    );
    return sendPage(reply, ControlPlaneListPage, { ...visit, page, status: status ?? null, approver: visit.roles.approver });
  });

  app.get('/console/control-plane/:id', { schema: { ...HIDDEN, params: IdParams, querystring: ConsoleQuery } }, async (request, reply) => {
    const visit = enter(deps, request, reply, request.query.lang ?? 'en', 'control-plane');
    if (!visit) return reply;
    const item = must(await visit.calls.read(visit.actor, () => controlPlane.get(request.params.id), { admin: 'content' }));
    return sendPage(reply, ControlPlaneRequestPage, {
      ...visit,
      item,
      approver: visit.roles.approver,
      me: allowlistKeyOf(visit.reader),
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
