/**
 * Largest request body the API reads. The server configures its parsers with it, and every text
 * that tells a developer about the limit (the OpenAPI document, the 413 message) prints it from
 * here, so the number and its prose cannot drift apart.
 */
export const BODY_LIMIT_BYTES = 16 * 1024;

/** The limit as people read it: "16 KiB". */
export const BODY_LIMIT_TEXT = `${BODY_LIMIT_BYTES / 1024} KiB`;
