import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { answer, errors } from '../../platform/schemas.js';
import {
  ApproveBody,
  CancelBody,
  ControlPlaneRequest,
  ControlPlaneRequestList,
  CreateRequestBody,
  ListRequestsQuery,
  ReadRequestQuery,
  RequestParams,
} from './schemas.js';
import type { createControlPlaneService } from './service.js';

/** The emergency control plane: two-person (CONTROL_PLANE_APPROVAL_MIN) approval of governance changes. */
export const controlPlaneModule: FastifyPluginAsyncTypebox<{ service: ReturnType<typeof createControlPlaneService> }> = async (
  app,
  { service },
) => {
  const tags = ['control-plane'];

  app.post(
    '/v1/admin/control-plane/requests',
    {
      config: { auth: { kind: 'human-write' } },
      schema: {
        operationId: 'createControlPlaneRequest',
        tags,
        summary: 'File a control-plane request (content admin initiator; rewards admin for money)',
        description:
          'Governance changes are filed by content admins (CONTENT_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 CONTENT_ADMIN_REQUIRED otherwise), money by rewards admins (REWARDS_ADMIN_IDS; 403 REWARDS_ADMIN_REQUIRED otherwise). Files a request for one change that needs several people: governance.activate (target a RATIFIED proposal, payload its changes), governance.emergency.apply (target emergency, payload the overlay evaluate recommends), governance.emergency.clear (payload the emergency id), settlement.run (target settlement, payload the pool and preview digest a run above SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS names in its 409) or batch.finalize (target batch, likewise). The target must fit the action (400 otherwise); the service stores the payload and its SHA-256 over canonical JSON, which is what approvers approve, and the number of approvals: CONTROL_PLANE_APPROVAL_MIN for governance, one other rewards admin for money. The answer is the request, PENDING.',
        body: CreateRequestBody,
        response: {
          202: answer(ControlPlaneRequest, 'Accepted: the request as filed, PENDING, with its id, payloadHash and the approvals it needs.'),
          ...errors(400, 401, 403, 409, 429, 503),
        },
      },
    },
    async (request, reply) => reply.code(202).send(await service.create(humanActor(request), request.body)),
  );

  app.get(
    '/v1/admin/control-plane/requests',
    {
      config: { auth: { kind: 'human-read' } },
      schema: {
        operationId: 'listControlPlaneRequests',
        tags,
        summary: 'Control-plane requests, newest first (filters: status, action; keyset cursor)',
        description:
          "A human signed read for content admins and rewards admins (403 CONTENT_ADMIN_REQUIRED otherwise). Lists control-plane requests newest first, optionally of one status or action; `limit` 1 to 100 (default 20) and a keyset cursor bound to the filters (another listing's cursor is 400 INVALID_CURSOR). The answer is one page, with nextCursor when there is a next one.",
        querystring: ListRequestsQuery,
        response: {
          200: answer(ControlPlaneRequestList, 'One page of requests, newest first, with nextCursor when there are more.'),
          ...errors(400, 401, 403, 409, 429, 503),
        },
      },
    },
    async (request) => {
      service.requireReader(humanActor(request));
      return service.list(request.query);
    },
  );

  app.get(
    '/v1/admin/control-plane/requests/:id',
    {
      config: { auth: { kind: 'human-read' } },
      schema: {
        operationId: 'getControlPlaneRequest',
        tags,
        summary: 'One control-plane request with its approvals',
        description:
          'A human signed read for content admins and rewards admins (403 CONTENT_ADMIN_REQUIRED otherwise), used to check a request before approving it. An unknown id is 404. The answer is the request with its action, target, payload and payloadHash, its state and every approval so far.',
        params: RequestParams,
        querystring: ReadRequestQuery,
        response: {
          200: answer(ControlPlaneRequest, 'The request with its approvals (approver identity key and time).'),
          ...errors(400, 401, 403, 404, 409, 429, 503),
        },
      },
    },
    async (request) => {
      service.requireReader(humanActor(request));
      return service.get(request.params.id);
    },
  );

  app.post(
    '/v1/admin/control-plane/requests/:id/approve',
    {
      config: { auth: { kind: 'human-write' } },
      schema: {
        operationId: 'approveControlPlaneRequest',
        tags,
        summary:
          'Approve a request: allowlisted approver (CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS), verified human, proof with action control_plane_approve:<id>',
        description:
          'For governance changes, only an approver listed in CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS (the content-admin list does not count; 403 CONTROL_PLANE_APPROVER_REQUIRED); for money (settlement.run, batch.finalize), only another rewards admin (403 REWARDS_ADMIN_REQUIRED), and the initiator never. The approver signs verified=true (403 VERIFIED_ACTOR_REQUIRED), and never the initiator (403 CONTROL_PLANE_REQUESTER_CANNOT_APPROVE). The body carries a human proof with action control_plane_approve:<requestId>; its nullifier is spent once, so one person cannot approve twice under two accounts (409 NULLIFIER_REUSED, 409 CONTROL_PLANE_ALREADY_APPROVED). The request must be PENDING (409 CONTROL_PLANE_REQUEST_NOT_PENDING); the approval that reaches approvalsRequired makes it EXECUTED, ready to be consumed by its change. The answer is the request with its approvals.',
        params: RequestParams,
        body: ApproveBody,
        response: {
          202: answer(
            ControlPlaneRequest,
            'Accepted: the request with this approval counted: still PENDING, or EXECUTED when it reached the approvals required.',
          ),
          ...errors(400, 401, 403, 404, 409, 429, 503),
        },
      },
    },
    async (request, reply) => reply.code(202).send(await service.approve(humanActor(request), request.params.id, request.body)),
  );

  app.post(
    '/v1/admin/control-plane/requests/:id/cancel',
    {
      config: { auth: { kind: 'human-write' } },
      schema: {
        operationId: 'cancelControlPlaneRequest',
        tags,
        summary: 'Cancel a request that is not consumed yet (initiator or content admin; money: initiator, while PENDING)',
        description:
          'A governance request: its initiator or a content admin; a money request (settlement.run, batch.finalize): its initiator only. Signed as a verified human (403 VERIFIED_ACTOR_REQUIRED, 403 CONTROL_PLANE_CANCEL_FORBIDDEN for anyone else). A governance request can be cancelled while PENDING or EXECUTED, a money request only while PENDING, before a second rewards admin approved it (409 CONTROL_PLANE_REQUEST_NOT_CANCELLABLE otherwise); a cancelled request authorizes nothing. The answer is the request, CANCELLED, with who cancelled it and why.',
        params: RequestParams,
        body: CancelBody,
        response: {
          202: answer(ControlPlaneRequest, 'Accepted: the request, now CANCELLED, with cancelledBy, cancelledAt and the reason.'),
          ...errors(400, 401, 403, 404, 409, 429, 503),
        },
      },
    },
    async (request, reply) => reply.code(202).send(await service.cancel(humanActor(request), request.params.id, request.body)),
  );
};
