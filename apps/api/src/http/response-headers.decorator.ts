import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

/** Sets a header on the response being built. */
export type TSetHeader = (name: string, value: string) => void;

/**
 * Lets a ts-rest handler set response headers (Location, Link). It hands over a setter rather
 * than the Fastify reply: the reply is a thenable, which Nest would await while resolving
 * parameters (it settles only once the response is sent), and Nest's own `@Res()` would take
 * sending the response away from ts-rest.
 */
export const ResponseHeaders = createParamDecorator(
  (_data: unknown, context: ExecutionContext): TSetHeader => {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return (name, value) => {
      reply.header(name, value);
    };
  },
);
