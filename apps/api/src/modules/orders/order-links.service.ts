import { Inject, Injectable } from '@nestjs/common';
import {
  ORDER_LINK_DAYS,
  ORDER_LINK_EMAILS_PER_HOUR,
  ORDER_LINKS_PER_EMAIL,
  ORDER_WITHDRAWAL,
  type TOrder,
  type TOrderLinksAccepted,
} from '@pets/contract';
import { MailRepository } from '@pets/store/mail.repository';
import {
  adopterApplications,
  OrderNotFoundError,
  OrderStatusError,
  OrdersRepository,
} from '@pets/store/orders.repository';
import { withTransaction } from '@pets/store/transaction';
import type { Pool } from 'pg';
import type { TCaller } from '../../api-keys/caller';
import { PG_POOL } from '../../app.tokens';
import { AppError } from '../../core/app-error';
import { OrderLinks } from '../../links/order-links';
import { LINKS_TEMPLATE } from '../../mail/mail-templates';

/**
 * The private links to applications: reading an order by the link in its adopter's email, and the
 * email that sends an adopter fresh links to all of their applications.
 */
@Injectable()
export class OrderLinksService {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly links: OrderLinks,
    private readonly orders: OrdersRepository,
    private readonly outbox: MailRepository,
  ) {}

  /** The order a valid, unexpired link names, whichever key placed it; else one 404 for all. */
  async byLink(token: string): Promise<TOrder> {
    const orderId = await this.links.verify(token);
    const order =
      orderId === undefined ? undefined : await this.orders.get(orderId, { apiKeyId: null });
    if (!order) {
      throw invalidLink();
    }
    return order;
  }

  /**
   * Confirms the unconfirmed order a valid link names (its adopter has the email, so the address
   * is theirs), recorded as by the calling key (the site's); the same 404 as `byLink` for a link
   * that is not valid, 409 `order_transition_not_allowed` for an order that is not unconfirmed.
   */
  async confirmByLink(caller: TCaller, token: string): Promise<TOrder> {
    const orderId = await this.links.verify(token);
    if (orderId === undefined) {
      throw invalidLink();
    }
    return this.orders.confirm(orderId, caller.start).catch((error: unknown) => {
      if (error instanceof OrderNotFoundError) {
        throw invalidLink();
      }
      if (error instanceof OrderStatusError) {
        throw new AppError(
          'order_transition_not_allowed',
          `Application ${orderId} is ${error.status}: only an unconfirmed application can be confirmed. Nothing changed.`,
        );
      }
      throw error;
    });
  }

  /**
   * The adopter withdraws the open application a valid link names (holding the link is the right
   * to act on that one application): cancel's transition, recorded `by` ORDER_HISTORY_BY_ADOPTER
   * with the adopter's name, so staff read who did it. What a cancellation does follows, and the
   * change hook queues its emails in the same transaction: staff told, the adopter's receipt, and
   * an approved one's waiting list told the animal is free again. The same 404 as `byLink` for a
   * link that is not valid; 409 `order_transition_not_allowed` for one that is no longer open.
   * Answered as a partner sees it (no staff names).
   */
  async withdrawByLink(token: string): Promise<TOrder> {
    const orderId = await this.links.verify(token);
    const order =
      orderId === undefined ? undefined : await this.orders.get(orderId, { apiKeyId: null });
    if (!order) {
      throw invalidLink();
    }
    const withdrawn = await this.orders
      .transition(order.id, { apiKeyId: null }, { ...ORDER_WITHDRAWAL, byName: order.adopter.name })
      .catch((error: unknown) => {
        if (error instanceof OrderNotFoundError) {
          throw invalidLink();
        }
        if (error instanceof OrderStatusError) {
          throw new AppError(
            'order_transition_not_allowed',
            `Application A-${order.id} is ${error.status}: only an open application can be withdrawn. Nothing changed.`,
          );
        }
        throw error;
      });
    return {
      ...withdrawn,
      history: withdrawn.history.map(({ byName: _byName, ...entry }) => entry),
    };
  }

  /**
   * Queues one email listing the address's applications, unless it has none or had
   * ORDER_LINK_EMAILS_PER_HOUR of them in the last hour; the answer is the same in every case.
   * The address is kept lower-case: that is how the per-address count finds it.
   */
  async send(email: string): Promise<TOrderLinksAccepted> {
    const to = email.toLowerCase();
    await withTransaction(this.pool, async (client) => {
      const applications = await adopterApplications(client, to, ORDER_LINKS_PER_EMAIL);
      if (applications.length > 0) {
        await this.outbox.enqueueWithinHourlyLimit(
          client,
          {
            template: LINKS_TEMPLATE,
            to,
            data: {
              applications: applications.map(({ orderId, petName, status, placedAt }) => ({
                orderId,
                petName,
                status,
                placedAt,
              })),
            },
          },
          ORDER_LINK_EMAILS_PER_HOUR,
        );
      }
    });
    return { email, expiresInDays: ORDER_LINK_DAYS };
  }
}

const invalidLink = (): AppError =>
  new AppError(
    'not_found',
    'This link is not valid or has expired. Ask for fresh links with the email address you applied with.',
  );
