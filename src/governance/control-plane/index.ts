import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { errors } from '../../platform/schemas.js';
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
      config: { auth: { kind: 'human-write', admin: 'content' } },
      schema: {
        operationId: 'createControlPlaneRequest',
        tags,
        summary: 'File a control-plane request (content admin initiator)',
        body: CreateRequestBody,
        response: { 202: ControlPlaneRequest, ...errors(400, 401, 403, 409, 429, 503) },
      },
    },
    async (request, reply) => reply.code(202).send(await service.create(humanActor(request), request.body)),
  );

  app.get(
    '/v1/admin/control-plane/requests',
    {
      config: { auth: { kind: 'human-read', admin: 'content' } },
      schema: {
        operationId: 'listControlPlaneRequests',
        tags,
        summary: 'Control-plane requests, newest first (filters: status, action; keyset cursor)',
        querystring: ListRequestsQuery,
        response: { 200: ControlPlaneRequestList, ...errors(400, 401, 403, 409, 429, 503) },
      },
    },
    async (request) => service.list(request.query),
  );

  app.get(
    '/v1/admin/control-plane/requests/:id',
    {
      config: { auth: { kind: 'human-read', admin: 'content' } },
      schema: {
        operationId: 'getControlPlaneRequest',
        tags,
        summary: 'One control-plane request with its approvals',
        params: RequestParams,
        querystring: ReadRequestQuery,
        response: { 200: ControlPlaneRequest, ...errors(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (request) => service.get(request.params.id),
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
        params: RequestParams,
        body: ApproveBody,
        response: { 202: ControlPlaneRequest, ...errors(400, 401, 403, 404, 409, 429, 503) },
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
        summary: 'Cancel a request that is not consumed yet (initiator or content admin, verified=true)',
        params: RequestParams,
        body: CancelBody,
        response: { 202: ControlPlaneRequest, ...errors(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (request, reply) => reply.code(202).send(await service.cancel(humanActor(request), request.params.id, request.body)),
  );
};
