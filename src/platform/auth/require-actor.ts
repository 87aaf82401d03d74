import type { FastifyRequest } from 'fastify';
import { appError } from '../errors.js';
import type { AgentActor, HumanActor } from './types.js';

/** The authenticated human of a human-signed route (the auth hook guarantees it; this narrows the type). */
export function humanActor(request: FastifyRequest): HumanActor {
  if (request.actor?.kind !== 'human') throw appError('SIGNATURE_INVALID', { message: 'A human signed request is required' });
  return request.actor;
}

/** The authenticated bot of an agent-signed route. */
export function agentActor(request: FastifyRequest): AgentActor {
  if (request.actor?.kind !== 'agent') throw appError('AGENT_SIGNATURE_INVALID', { message: 'An agent signed request is required' });
  return request.actor;
}
