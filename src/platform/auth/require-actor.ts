import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { AgentActor, HumanActor } from './types.js';

/** The authenticated human of a human-signed route (the auth hook guarantees it; this narrows the type). */
export function humanActor(request: FastifyRequest): HumanActor {
  if (request.actor?.kind !== 'human') throw new AppError(401, 'SIGNATURE_INVALID', 'Signature invalid', { message: 'A human signed request is required' });
  return request.actor;
}

/** The authenticated bot of an agent-signed route. */
export function agentActor(request: FastifyRequest): AgentActor {
  if (request.actor?.kind !== 'agent') throw new AppError(401, 'AGENT_SIGNATURE_INVALID', 'Invalid agent signature', { message: 'An agent signed request is required' });
  return request.actor;
}
