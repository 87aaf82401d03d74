import { Type } from '@sinclair/typebox';
import { Sha256Hex } from '../../platform/schemas.js';

export const PublishParams = Type.Object({ hash: Sha256Hex });

/**
 * The compute route defines no body fields: the decision is always the service's own scan. Any field
 * (a `decision`, an `override`…) is refused with 400.
 */
export const PublishBody = Type.Optional(Type.Object({}, { additionalProperties: false }));
