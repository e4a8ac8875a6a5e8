import { randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

/** Time-ordered UUID (RFC 9562 v7): event ids and aggregate ids sort by creation time. */
export const newId = (): string => uuidv7();

/** Unguessable URL-safe token (default 32 bytes of entropy). */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');
