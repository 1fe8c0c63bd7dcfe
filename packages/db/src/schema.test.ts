import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from './generated/prisma/client';
import { OrderStatus, PetStatus } from './generated/prisma/enums';
import { testDatabase } from './testing';

/**
 * The migrations (SQL written by hand in Prisma Migrate's layout) must produce the database that
 * schema.prisma describes: every model is written and read back through the generated client, on
 * a database built by migrate() alone.
 */

const { prisma, create, drop } = testDatabase();
beforeAll(create);
afterAll(drop);

const prismaCode = async (promise: Promise<unknown>): Promise<string | undefined> => {
  try {
    await promise;
  } catch (error) {
    return error instanceof Prisma.PrismaClientKnownRequestError ? error.code : 'other';
  }
  return undefined;
};

const roundTrips: Record<Prisma.ModelName, () => Promise<void>> = {
  Category: async () => {
    const created = await prisma.category.create({ data: { name: 'Axolotls' } });
    expect(typeof created.id).toBe('bigint');
    expect(created.createdAt).toBeInstanceOf(Date);
    const read = await prisma.category.findUniqueOrThrow({ where: { name: 'Axolotls' } });
    expect(read).toEqual(created);
    expect(await prismaCode(prisma.category.create({ data: { name: 'Axolotls' } }))).toBe('P2002');
  },

  Pet: async () => {
    const category = await prisma.category.create({ data: { name: 'Tortoises' } });
    const defaulted = await prisma.pet.create({
      data: { name: 'Shelly', categoryId: category.id },
    });
    expect(defaulted.status).toBe('available');
    expect(defaulted.createdAt).toBeInstanceOf(Date);
    for (const status of Object.values(PetStatus)) {
      await prisma.pet.create({
        data: { name: `Tortle ${status}`, categoryId: category.id, status },
      });
    }
    const read = await prisma.pet.findUniqueOrThrow({
      where: { id: defaulted.id },
      include: { category: true },
    });
    expect(read).toEqual({ ...defaulted, category });
    // listPets' two access paths: newest first, with and without the status filter.
    const sold = await prisma.pet.findMany({
      where: { categoryId: category.id, status: 'sold' },
      orderBy: { id: 'desc' },
    });
    expect(sold.map((pet) => pet.name)).toEqual(['Tortle sold']);
    expect(
      await prismaCode(prisma.pet.create({ data: { name: 'Nobody', categoryId: 999_999_999n } })),
    ).toBe('P2003');
    expect(await prismaCode(prisma.category.delete({ where: { id: category.id } }))).toBe('P2003');
  },

  ApiKey: async () => {
    const data = {
      name: 'Partner',
      environment: 'staging',
      plan: 'enterprise',
      hash: 'a'.repeat(64),
      start: 'pets_test_AbCd',
      rateLimitPerMinute: 5_000,
      rateLimitPerDay: 1_000_000,
    } as const;
    const created = await prisma.apiKey.create({ data });
    expect(created).toMatchObject({ ...data, revokedAt: null });
    const revokedAt = new Date('2026-11-23T10:00:00.123Z');
    await prisma.apiKey.update({ where: { id: created.id }, data: { revokedAt } });
    expect(await prisma.apiKey.findUniqueOrThrow({ where: { hash: data.hash } })).toEqual({
      ...created,
      revokedAt,
    });
    const plain = await prisma.apiKey.create({
      data: {
        ...data,
        hash: 'b'.repeat(64),
        plan: 'free',
        rateLimitPerMinute: null,
        rateLimitPerDay: null,
      },
    });
    expect(plain).toMatchObject({
      rateLimitPerMinute: null,
      rateLimitPerDay: null,
      expiresAt: null,
      lastUsedAt: null,
      previousHash: null,
      previousHashExpiresAt: null,
    });
    expect(await prismaCode(prisma.apiKey.create({ data }))).toBe('P2002');
    // A roll keeps the row: the old hash moves aside, and no other key may hold it.
    const rolled = await prisma.apiKey.update({
      where: { id: plain.id },
      data: {
        previousHash: plain.hash,
        previousHashExpiresAt: new Date('2026-11-24T10:00:00.000Z'),
        hash: 'r'.repeat(64),
      },
    });
    expect(
      await prisma.apiKey.findUniqueOrThrow({ where: { previousHash: 'b'.repeat(64) } }),
    ).toEqual(rolled);
    expect(
      await prismaCode(
        prisma.apiKey.update({ where: { id: created.id }, data: { previousHash: 'b'.repeat(64) } }),
      ),
    ).toBe('P2002');
  },

  ApiKeyUsageHour: async () => {
    const apiKey = await prisma.apiKey.create({
      data: {
        name: 'Usage',
        environment: 'production',
        plan: 'free',
        hash: 'u'.repeat(64),
        start: 'pets_live_Usag',
      },
    });
    const hour = new Date('2026-11-27T08:00:00.000Z');
    const row = { apiKeyId: apiKey.id, hour, statusClass: '2xx', count: 25 };
    expect(await prisma.apiKeyUsageHour.create({ data: row })).toEqual(row);
    await prisma.apiKeyUsageHour.create({ data: { ...row, statusClass: '429', count: 3 } });
    expect(
      await prisma.apiKeyUsageHour.findMany({
        where: { apiKeyId: apiKey.id, hour },
        orderBy: { statusClass: 'asc' },
        select: { statusClass: true, count: true },
      }),
    ).toEqual([
      { statusClass: '2xx', count: 25 },
      { statusClass: '429', count: 3 },
    ]);
    // One row per key, hour and class; only the five classes.
    expect(await prismaCode(prisma.apiKeyUsageHour.create({ data: row }))).toBe('P2002');
    expect(
      await prismaCode(prisma.apiKeyUsageHour.create({ data: { ...row, statusClass: '418' } })),
    ).toBeDefined();
    // A key's usage goes with it.
    await prisma.apiKeyUsageHour.deleteMany({});
    await prisma.apiKeyUsageHour.create({ data: row });
    await prisma.apiKey.delete({ where: { id: apiKey.id } });
    expect(await prisma.apiKeyUsageHour.count({ where: { apiKeyId: apiKey.id } })).toBe(0);
  },

  Order: async () => {
    const category = await prisma.category.create({ data: { name: 'Chinchillas' } });
    const pet = await prisma.pet.create({ data: { name: 'Dusty', categoryId: category.id } });
    const apiKey = await prisma.apiKey.create({
      data: {
        name: 'Buyer',
        environment: 'production',
        plan: 'pro',
        hash: 'c'.repeat(64),
        start: 'pets_live_XyZ0',
      },
    });
    expect(apiKey).toMatchObject({ role: 'partner', readOnly: false });
    const adopter = { adopterName: 'Ada', adopterEmail: 'ada@example.org' };
    const placed = await prisma.order.create({
      data: { petId: pet.id, apiKeyId: apiKey.id, ...adopter },
    });
    expect(placed).toMatchObject({
      status: 'placed',
      adopterPhone: null,
      message: null,
      history: [],
    });
    expect(placed.placedAt).toBeInstanceOf(Date);
    expect(placed.updatedAt).toBeInstanceOf(Date);
    expect(placed).toMatchObject({ declineReason: null, declineNote: null });
    expect(pet.applicationsInReview).toBe(0);
    // One open (unconfirmed, placed, waitlisted or approved) order per animal and adopter email, whatever its
    // case: a partial unique index of the migration.
    for (const status of Object.values(OrderStatus)) {
      const created = prisma.order.create({
        data: { petId: pet.id, apiKeyId: apiKey.id, status, ...adopter },
      });
      expect(await prismaCode(created), status).toBe(
        ['unconfirmed', 'placed', 'waitlisted', 'approved'].includes(status) ? 'P2002' : undefined,
      );
    }
    const shouting = { adopterName: 'Ada', adopterEmail: 'ADA@Example.org' };
    expect(
      await prismaCode(
        prisma.order.create({ data: { petId: pet.id, apiKeyId: apiKey.id, ...shouting } }),
      ),
    ).toBe('P2002');
    // Another adopter may apply; but at most one approved or completed order per animal (the
    // loop above completed one).
    const other = { adopterName: 'Bo', adopterEmail: 'bo@example.org' };
    expect(
      await prismaCode(
        prisma.order.create({ data: { petId: pet.id, apiKeyId: apiKey.id, ...other } }),
      ),
    ).toBeUndefined();
    expect(
      await prismaCode(
        prisma.order.create({
          data: {
            petId: pet.id,
            apiKeyId: apiKey.id,
            status: 'approved',
            adopterName: 'Cy',
            adopterEmail: 'cy@example.org',
          },
        }),
      ),
    ).toBe('P2002');
    const declined = await prisma.order.create({
      data: {
        petId: pet.id,
        apiKeyId: apiKey.id,
        status: 'declined',
        declineReason: 'home_not_suitable',
        declineNote: 'We hope you find a friend soon.',
        ...other,
      },
    });
    expect(declined).toMatchObject({ declineReason: 'home_not_suitable' });
    const read = await prisma.order.findUniqueOrThrow({
      where: { id: placed.id },
      include: { pet: true, apiKey: true },
    });
    expect(read).toEqual({ ...placed, pet, apiKey });
    const mine = await prisma.order.findMany({
      where: { apiKeyId: apiKey.id, status: 'cancelled' },
      orderBy: { id: 'desc' },
    });
    expect(mine).toHaveLength(1);
    expect(await prismaCode(prisma.pet.delete({ where: { id: pet.id } }))).toBe('P2003');
  },

  OrderNote: async () => {
    const category = await prisma.category.create({ data: { name: 'Note takers' } });
    const pet = await prisma.pet.create({ data: { name: 'Scribbles', categoryId: category.id } });
    const apiKey = await prisma.apiKey.create({
      data: {
        name: 'Front desk',
        environment: 'production',
        plan: 'pro',
        role: 'staff',
        hash: 'n'.repeat(64),
        start: 'pets_live_Note',
      },
    });
    const order = await prisma.order.create({
      data: { petId: pet.id, apiKeyId: apiKey.id, adopterName: 'Ada', adopterEmail: 'a@b.org' },
    });
    const note = await prisma.orderNote.create({
      data: { orderId: order.id, apiKeyId: apiKey.id, author: 'Front desk', text: 'Called her.' },
    });
    expect(note.createdAt).toBeInstanceOf(Date);
    expect(await prisma.orderNote.findMany({ where: { orderId: order.id } })).toEqual([note]);
    // A key with notes cannot be deleted; an order's notes go with it.
    expect(await prismaCode(prisma.apiKey.delete({ where: { id: apiKey.id } }))).toBe('P2003');
    await prisma.order.delete({ where: { id: order.id } });
    expect(await prisma.orderNote.count({ where: { id: note.id } })).toBe(0);
  },

  SavedSearch: async () => {
    const created = await prisma.savedSearch.create({
      data: {
        email: 'robin@example.org',
        filter: { categoryId: 1, age: 'young' },
        confirmTokenHash: 'c'.repeat(64),
        unsubscribeTokenHash: 'u'.repeat(64),
      },
    });
    expect(created).toMatchObject({ confirmedAt: null, lastAlertAt: null, unsubscribedAt: null });
    expect(created.createdAt).toBeInstanceOf(Date);
    // A token's hash names one search only.
    expect(
      await prismaCode(
        prisma.savedSearch.create({
          data: {
            email: 'other@example.org',
            filter: {},
            confirmTokenHash: 'c'.repeat(64),
            unsubscribeTokenHash: 'v'.repeat(64),
          },
        }),
      ),
    ).toBe('P2002');
  },
  MailMessage: async () => {
    const category = await prisma.category.create({ data: { name: 'Pen pals' } });
    const pet = await prisma.pet.create({ data: { name: 'Stamp', categoryId: category.id } });
    const apiKey = await prisma.apiKey.create({
      data: {
        name: 'Mail room',
        environment: 'production',
        plan: 'pro',
        hash: 'm'.repeat(64),
        start: 'pets_live_Mail',
      },
    });
    const order = await prisma.order.create({
      data: { petId: pet.id, apiKeyId: apiKey.id, adopterName: 'Ada', adopterEmail: 'a@b.org' },
    });
    const mail = await prisma.mailMessage.create({
      data: {
        template: 'application-received',
        recipient: 'a@b.org',
        data: { petName: 'Stamp' },
        orderId: order.id,
      },
    });
    expect(mail).toMatchObject({ sentAt: null, attempts: 0, lastError: null });
    expect(mail.createdAt).toBeInstanceOf(Date);
    // A message outlives the application it was about (it was sent, or still is to be).
    await prisma.order.delete({ where: { id: order.id } });
    expect(await prisma.mailMessage.findUniqueOrThrow({ where: { id: mail.id } })).toMatchObject({
      orderId: null,
      data: { petName: 'Stamp' },
    });
  },

  Event: async () => {
    const apiKey = await prisma.apiKey.create({
      data: {
        name: 'Events',
        environment: 'production',
        plan: 'pro',
        hash: 'e'.repeat(64),
        start: 'pets_live_Evnt',
      },
    });
    const animal = await prisma.event.create({
      data: { type: 'pet.created', data: { id: 1, name: 'Echo' } },
    });
    const order = await prisma.event.create({
      data: { type: 'order.placed', apiKeyId: apiKey.id, data: { id: 2, status: 'placed' } },
    });
    // Numbered in the order they were recorded: the public id is evt_<id>.
    expect(order.id).toBeGreaterThan(animal.id);
    expect(animal).toMatchObject({ apiKeyId: null, data: { name: 'Echo' } });
    expect(animal.createdAt).toBeInstanceOf(Date);
    expect(
      await prisma.event.findMany({ where: { apiKeyId: apiKey.id }, select: { type: true } }),
    ).toEqual([{ type: 'order.placed' }]);
    // The writing transaction's id, for the webhooks' fan-out: later transactions, larger ids.
    expect(order.xactId).toBeGreaterThan(animal.xactId);
  },

  WebhookEndpoint: async () => {
    const apiKey = await prisma.apiKey.create({
      data: {
        name: 'Webhooks',
        environment: 'production',
        plan: 'pro',
        hash: 'w'.repeat(64),
        start: 'pets_live_Whks',
      },
    });
    const endpoint = await prisma.webhookEndpoint.create({
      data: {
        apiKeyId: apiKey.id,
        url: 'https://partner.example/hooks',
        eventTypes: ['pet.created', '*'],
        secret: 'ciphertext',
        cursorXactId: 1n,
      },
    });
    expect(endpoint).toMatchObject({ status: 'enabled', cursorEventId: 0n, description: null });
    expect(endpoint.eventTypes).toEqual(['pet.created', '*']);
    const event = await prisma.event.create({ data: { type: 'pet.created', data: { id: 1 } } });
    const delivery = await prisma.webhookDelivery.create({
      data: {
        endpointId: endpoint.id,
        eventId: event.id,
        eventType: 'pet.created',
        payload: { id: `evt_${event.id}` },
        nextAttemptAt: new Date(),
      },
    });
    expect(delivery).toMatchObject({ status: 'pending', attemptCount: 0 });
    // One delivery per event and endpoint: a second fan-out of the same event does nothing.
    expect(
      await prismaCode(
        prisma.webhookDelivery.create({
          data: {
            endpointId: endpoint.id,
            eventId: event.id,
            eventType: 'pet.created',
            payload: {},
          },
        }),
      ),
    ).toBe('P2002');
    const attempt = await prisma.webhookAttempt.create({
      data: { deliveryId: delivery.id, at: new Date(), statusCode: 500, durationMs: 12 },
    });
    expect(attempt).toMatchObject({ error: null, responseBody: null });
    const lease = await prisma.webhookEndpointLease.create({
      data: {
        endpointId: endpoint.id,
        leaseUntil: new Date(),
        leaseToken: '6f1c1f0e-7d1a-4c53-9a3e-1f0f8d5e2b7a',
      },
    });
    expect(lease).toMatchObject({ failingSince: null });
    // Deleting the endpoint deletes its deliveries, their attempts and its lease.
    await prisma.webhookEndpoint.delete({ where: { id: endpoint.id } });
    expect(await prisma.webhookAttempt.count({ where: { deliveryId: delivery.id } })).toBe(0);
    expect(await prisma.webhookEndpointLease.count({ where: { endpointId: endpoint.id } })).toBe(0);
  },

  WebhookEndpointLease: async () => {
    // Written and read with its endpoint (WebhookEndpoint above).
    expect(await prisma.webhookEndpointLease.count()).toBe(0);
  },

  WebhookDelivery: async () => {
    // Written and read with its endpoint (WebhookEndpoint above); a test delivery has no event.
    expect(await prisma.webhookDelivery.count({ where: { eventId: null } })).toBe(0);
  },

  WebhookAttempt: async () => {
    // Written and read with its delivery (WebhookEndpoint above).
    expect(await prisma.webhookAttempt.count()).toBe(0);
  },

  SigningKey: async () => {
    const key = await prisma.signingKey.create({
      data: { name: 'order-links', secret: 's'.repeat(43) },
    });
    expect(key.createdAt).toBeInstanceOf(Date);
    // One secret per purpose: a second process's insert for the same name fails.
    expect(
      await prismaCode(
        prisma.signingKey.create({ data: { name: 'order-links', secret: 't'.repeat(43) } }),
      ),
    ).toBe('P2002');
  },

  PetPhoto: async () => {
    const category = await prisma.category.create({ data: { name: 'Axolotl photos' } });
    const pet = await prisma.pet.create({
      data: {
        name: 'Axel',
        categoryId: category.id,
        description: 'Smiles all day.',
        sex: 'unknown',
        age: 'adult',
        size: 'small',
        breed: 'Leucistic',
        arrivedAt: new Date('2026-03-03T00:00:00Z'),
      },
    });
    expect(pet).toMatchObject({ sex: 'unknown', arrivedAt: new Date('2026-03-03T00:00:00Z') });
    const sizes = [
      { width: 160, height: 120, key: 'pets/1/abc-160.webp' },
      { width: 480, height: 360, key: 'pets/1/abc-480.webp' },
    ];
    const second = await prisma.petPhoto.create({
      data: { petId: pet.id, position: 1, width: 480, height: 360, placeholder: 'AAAA', sizes },
    });
    const first = await prisma.petPhoto.create({
      data: { petId: pet.id, position: 0, width: 480, height: 360, placeholder: 'BBBB', sizes },
    });
    expect(second.createdAt).toBeInstanceOf(Date);
    const read = await prisma.pet.findUniqueOrThrow({
      where: { id: pet.id },
      include: { photos: { orderBy: { position: 'asc' } } },
    });
    expect(read.photos).toEqual([first, second]);
    expect(read.photos[0]?.sizes).toEqual(sizes);
    expect(
      await prismaCode(
        prisma.petPhoto.create({
          data: { petId: 999_999_999n, position: 0, width: 1, height: 1, placeholder: '', sizes },
        }),
      ),
    ).toBe('P2003');
    // An animal's photos go with it.
    await prisma.pet.delete({ where: { id: pet.id } });
    expect(await prisma.petPhoto.count({ where: { petId: pet.id } })).toBe(0);
  },

  DatabaseEnvironment: async () => {
    const created = await prisma.databaseEnvironment.create({ data: { environment: 'staging' } });
    expect(created).toMatchObject({ id: true, environment: 'staging' });
    expect(created.recordedAt).toBeInstanceOf(Date);
    // One row at most: its key is always true (a CHECK in the migration).
    expect(
      await prismaCode(prisma.databaseEnvironment.create({ data: { environment: 'production' } })),
    ).toBe('P2002');
    expect(
      await prismaCode(
        prisma.databaseEnvironment.create({ data: { id: false, environment: 'production' } }),
      ),
    ).not.toBeUndefined();
    await prisma.databaseEnvironment.delete({ where: { id: true } });
  },

  IdempotencyKey: async () => {
    const apiKey = await prisma.apiKey.create({
      data: {
        name: 'Retrier',
        environment: 'production',
        plan: 'pro',
        hash: '5f'.repeat(32),
        start: 'pets_live_Rtry',
      },
    });
    const scope = { apiKeyId: apiKey.id, operation: 'createPet', key: 'k'.repeat(255) };
    const createdAt = new Date('2026-11-23T10:00:00.000Z');
    const expiresAt = new Date('2026-11-24T10:00:00.000Z');
    const inProgress = await prisma.idempotencyKey.create({
      data: { ...scope, requestHash: 'e'.repeat(64), createdAt, expiresAt },
    });
    expect(inProgress).toMatchObject({ responseStatus: null, responseBody: null });
    const completed = await prisma.idempotencyKey.update({
      where: { id: inProgress.id },
      data: {
        responseStatus: 201,
        responseHeaders: { Location: '/v1/pets/1' },
        responseBody: '{"id":1}',
      },
    });
    expect(
      await prisma.idempotencyKey.findUniqueOrThrow({
        where: { apiKeyId_operation_key: scope },
      }),
    ).toEqual(completed);
    expect(
      await prismaCode(
        prisma.idempotencyKey.create({
          data: { ...scope, requestHash: 'f'.repeat(64), createdAt, expiresAt },
        }),
      ),
    ).toBe('P2002');
    // Entries go with their key.
    await prisma.apiKey.delete({ where: { id: apiKey.id } });
    expect(await prisma.idempotencyKey.count({ where: { id: inProgress.id } })).toBe(0);
  },

  Organization: async () => {
    const created = await prisma.organization.create({ data: { name: 'Shelter Apps' } });
    expect(created).toMatchObject({ plan: 'free', rateLimitPerMinute: null });
    // Custom limits are for enterprise organisations only (a CHECK).
    expect(
      await prismaCode(
        prisma.organization.create({ data: { name: 'X', plan: 'pro', rateLimitPerMinute: 5 } }),
      ),
    ).toBeDefined();
  },

  Account: async () => {
    const organization = await prisma.organization.create({ data: { name: 'Dev org' } });
    const admin = await prisma.account.create({
      data: { email: 'Admin@Example.org', name: 'Ada', role: 'admin', passwordHash: '$argon2id$x' },
    });
    expect(admin.status).toBe('active');
    const developer = await prisma.account.create({
      data: {
        email: 'dev@example.org',
        name: 'Dev',
        role: 'developer',
        passwordHash: '$argon2id$x',
        organizationId: organization.id,
      },
    });
    expect(developer.organizationId).toBe(organization.id);
    // One account per address whatever its case; a developer needs an organisation, staff none;
    // only an invited account may lack a password.
    const refused = [
      { email: 'admin@example.org', name: 'A', role: 'staff', passwordHash: 'x' },
      { email: 'd2@example.org', name: 'D', role: 'developer', passwordHash: 'x' },
      {
        email: 's@example.org',
        name: 'S',
        role: 'staff',
        passwordHash: 'x',
        organizationId: organization.id,
      },
      { email: 'p@example.org', name: 'P', role: 'staff' },
    ] as const;
    for (const data of refused) {
      expect(await prismaCode(prisma.account.create({ data }))).toBeDefined();
    }
    const invited = await prisma.account.create({
      data: {
        email: 'inv@example.org',
        name: 'Inv',
        role: 'staff',
        status: 'invited',
        invitedById: admin.id,
        invitedAt: new Date(),
      },
    });
    expect(invited.passwordHash).toBeNull();
  },

  Passkey: async () => {
    const account = await prisma.account.create({
      data: { email: 'passkey@example.org', name: 'Pat', role: 'staff', passwordHash: 'x' },
    });
    const passkey = await prisma.passkey.create({
      data: {
        accountId: account.id,
        credentialId: 'cred-1',
        publicKey: Buffer.from([1, 2, 3]),
        transports: ['internal'],
        name: 'Laptop',
      },
    });
    expect(passkey).toMatchObject({ counter: 0n, backedUp: false, lastUsedAt: null });
    // A credential id names one passkey, whoever's it is.
    expect(
      await prismaCode(
        prisma.passkey.create({
          data: {
            accountId: account.id,
            credentialId: 'cred-1',
            publicKey: Buffer.from([4]),
            name: 'x',
          },
        }),
      ),
    ).toBe('P2002');
    // A counter never goes below zero (a CHECK).
    expect(
      await prismaCode(
        prisma.passkey.update({ where: { id: passkey.id }, data: { counter: -1n } }),
      ),
    ).toBeDefined();
  },
  WebauthnChallenge: async () => {
    const account = await prisma.account.create({
      data: { email: 'challenge@example.org', name: 'Cal', role: 'staff', passwordHash: 'x' },
    });
    const expiresAt = new Date(Date.now() + 300_000);
    const challenge = await prisma.webauthnChallenge.create({
      data: { challenge: 'c1', purpose: 'register', accountId: account.id, expiresAt },
    });
    expect(challenge.usedAt).toBeNull();
    await prisma.webauthnChallenge.create({
      data: { challenge: 'c2', purpose: 'authenticate', expiresAt },
    });
    // A registration's challenge is bound to its account, a sign-in's to nobody (a CHECK).
    expect(
      await prismaCode(
        prisma.webauthnChallenge.create({
          data: { challenge: 'c3', purpose: 'register', expiresAt },
        }),
      ),
    ).toBeDefined();
    expect(
      await prismaCode(
        prisma.webauthnChallenge.create({
          data: { challenge: 'c1', purpose: 'authenticate', expiresAt },
        }),
      ),
    ).toBe('P2002');
  },
  AccountSession: async () => {
    const account = await prisma.account.create({
      data: { email: 'session@example.org', name: 'Sam', role: 'staff', passwordHash: 'x' },
    });
    const session = await prisma.accountSession.create({
      data: {
        accountId: account.id,
        method: 'password',
        idleSeconds: 3600,
        expiresAt: new Date(Date.now() + 3_600_000),
      },
    });
    expect(session.endedAt).toBeNull();
    const credential = await prisma.apiKey.create({
      data: {
        name: 'Sam',
        environment: 'staging',
        plan: 'business',
        role: 'staff',
        hash: '5e'.repeat(32),
        start: 'pets_test_Sess',
        kind: 'session',
        accountId: account.id,
        sessionId: session.id,
      },
    });
    expect(credential.kind).toBe('session');
    // A session credential names its session, and no other key does (a CHECK).
    expect(
      await prismaCode(
        prisma.apiKey.create({
          data: {
            name: 'x',
            environment: 'staging',
            plan: 'free',
            hash: '5f'.repeat(32),
            start: 'pets_test_Xxxx',
            kind: 'session',
          },
        }),
      ),
    ).toBeDefined();
    expect(
      await prismaCode(
        prisma.accountSession.create({
          data: { accountId: account.id, method: 'sms', idleSeconds: 1, expiresAt: new Date() },
        }),
      ),
    ).toBeDefined();
    // Deleting the session deletes its credential.
    await prisma.accountSession.delete({ where: { id: session.id } });
    expect(await prisma.apiKey.count({ where: { id: credential.id } })).toBe(0);
  },

  AuditEntry: async () => {
    const entry = await prisma.auditEntry.create({
      data: {
        actorName: 'pnpm accounts',
        action: 'account.created',
        targetType: 'account',
        targetId: '1',
      },
    });
    expect(entry.details).toEqual({});
    expect(entry.at).toBeInstanceOf(Date);
  },

  PlanChangeRequest: async () => {
    const organization = await prisma.organization.create({ data: { name: 'Plan org' } });
    const data = {
      organizationId: organization.id,
      currentPlan: 'free',
      requestedPlan: 'pro',
    } as const;
    const pending = await prisma.planChangeRequest.create({ data });
    expect(pending).toMatchObject({ status: 'pending', decidedAt: null, message: null });
    // One pending request per organisation (a partial unique index).
    expect(await prismaCode(prisma.planChangeRequest.create({ data }))).toBe('P2002');
    await prisma.planChangeRequest.update({
      where: { id: pending.id },
      data: { status: 'declined', decidedAt: new Date() },
    });
    expect(await prisma.planChangeRequest.create({ data })).toMatchObject({ status: 'pending' });
    // Limits only on an approved Enterprise request; the same plan is no change.
    expect(
      await prismaCode(
        prisma.planChangeRequest.create({
          data: { ...data, status: 'approved', decidedAt: new Date(), rateLimitPerMinute: 5 },
        }),
      ),
    ).toBeDefined();
    expect(
      await prismaCode(
        prisma.planChangeRequest.create({ data: { ...data, requestedPlan: 'free' } }),
      ),
    ).toBeDefined();
  },
};

describe('the migrated database serves every model of schema.prisma', () => {
  it('has a round trip for each model the client knows', () => {
    expect(Object.keys(roundTrips).sort()).toEqual(Object.values(Prisma.ModelName).sort());
  });

  it.each(Object.keys(roundTrips) as Prisma.ModelName[])(
    '%s: create and read back',
    async (model) => {
      await roundTrips[model]();
    },
  );
});
