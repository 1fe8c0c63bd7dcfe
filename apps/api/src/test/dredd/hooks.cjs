// Dredd's hooks for a run against a fresh database (src/http/dredd.test.ts): the usual two. Only
// the documented successes are tried (an error response cannot be provoked from an example), and
// each transaction gets fresh data made through the API first: its own animal, photo or order,
// and a new Idempotency-Key. Dredd sends what the document's examples say; only ids and the photo
// bytes are ours.
const hooks = require('hooks');
const { randomUUID } = require('node:crypto');
const { readFileSync } = require('node:fs');

const base = process.env.DREDD_API_URL;
const key = process.env.DREDD_STAFF_KEY;
const categoryId = Number(process.env.DREDD_CATEGORY_ID);
const photo = Buffer.from(process.env.DREDD_PHOTO_BASE64 ?? '', 'base64');
const document = JSON.parse(readFileSync(process.env.DREDD_DOCUMENT, 'utf8'));

const call = async (method, path, body, contentType = 'application/json') => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': contentType,
      'idempotency-key': randomUUID(),
    },
    body: contentType === 'application/json' ? JSON.stringify(body) : body,
  });
  if (!response.ok) {
    throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  }
  return response.status === 204 ? undefined : response.json();
};

const newPet = () =>
  call('POST', '/pets', { name: `Dredd ${randomUUID().slice(0, 8)}`, categoryId });
const newPhoto = (petId) => call('POST', `/pets/${petId}/photos`, photo, 'image/png');
const newOrder = async () =>
  call('POST', '/store/orders', {
    petId: (await newPet()).id,
    adopter: { name: 'Ada Lovelace', email: 'ada@example.org' },
  });

const newEndpoint = () =>
  call('POST', '/webhook-endpoints', { url: 'https://partner.example/hooks', events: ['*'] });
const endpointIds = async () => ({ endpointId: (await newEndpoint()).id });

/**
 * The document's own example of an operation's JSON body. Dredd 14 does not take the example of
 * NewPet or PetUpdate (a schema with an inline strict object, the fee, in it): it builds a body of
 * empty strings from the schema instead, so those two get the document's example from here.
 */
const documentExample = (path, method) => {
  const { $ref } = document.paths[path][method].requestBody.content['application/json'].schema;
  return document.components.schemas[$ref.split('/').pop()].example;
};

/**
 * Fresh data for an operation: its path parameters, and the body's ids where it has them
 * (`body`, merged into Dredd's) or the whole body (`wholeBody`).
 */
const fresh = {
  'POST /pets': async () => ({ wholeBody: documentExample('/pets', 'post') }),
  'GET /pets/{petId}': async () => ({ petId: (await newPet()).id }),
  'PATCH /pets/{petId}': async () => ({
    petId: (await newPet()).id,
    wholeBody: documentExample('/pets/{petId}', 'patch'),
  }),
  'POST /pets/{petId}/photos': async () => ({ petId: (await newPet()).id }),
  'DELETE /pets/{petId}/photos/{photoId}': async () => {
    const pet = await newPet();
    return { petId: pet.id, photoId: (await newPhoto(pet.id)).id };
  },
  'PUT /pets/{petId}/photos/order': async () => {
    const pet = await newPet();
    const first = await newPhoto(pet.id);
    const second = await newPhoto(pet.id);
    return { petId: pet.id, body: { photoIds: [second.id, first.id] } };
  },
  'POST /store/orders': async () => ({ body: { petId: (await newPet()).id } }),
  'GET /store/orders/{orderId}': async () => ({ orderId: (await newOrder()).id }),
  'POST /store/orders/{orderId}/approve': async () => ({ orderId: (await newOrder()).id }),
  'POST /store/orders/{orderId}/complete': async () => {
    const order = await newOrder();
    await call('POST', `/store/orders/${order.id}/approve`);
    return { orderId: order.id };
  },
  'POST /store/orders/{orderId}/decline': async () => ({ orderId: (await newOrder()).id }),
  'GET /store/orders/{orderId}/notes': async () => ({ orderId: (await newOrder()).id }),
  'POST /store/orders/{orderId}/notes': async () => ({ orderId: (await newOrder()).id }),
  'POST /store/orders/{orderId}/cancel': async () => ({ orderId: (await newOrder()).id }),
  'POST /store/orders/{orderId}/questions': async () => ({ orderId: (await newOrder()).id }),
  'GET /webhook-endpoints/{endpointId}': endpointIds,
  'PATCH /webhook-endpoints/{endpointId}': endpointIds,
  'DELETE /webhook-endpoints/{endpointId}': endpointIds,
  'POST /webhook-endpoints/{endpointId}/rotate-secret': endpointIds,
  'POST /webhook-endpoints/{endpointId}/test': endpointIds,
  'GET /webhook-endpoints/{endpointId}/deliveries': endpointIds,
  'POST /webhook-endpoints/{endpointId}/deliveries/{deliveryId}/retry': async () => {
    const endpoint = await newEndpoint();
    const delivery = await call('POST', `/webhook-endpoints/${endpoint.id}/test`);
    return { endpointId: endpoint.id, deliveryId: delivery.id };
  },
  // A link signed by the test for an order of its own: the example's token is signed by nobody.
  'POST /store/order-links/lookup': async () => ({
    body: { token: process.env.DREDD_ORDER_LINK_TOKEN },
  }),
  // The link of an application the test left unconfirmed: confirmed once, by Dredd's one call.
  'POST /store/order-links/confirm': async () => ({
    body: { token: process.env.DREDD_CONFIRM_LINK_TOKEN },
  }),
};

hooks.beforeEach((transaction, done) => {
  if (!/^2\d\d$/.test(transaction.expected.statusCode)) {
    transaction.skip = true;
    done();
    return;
  }
  const { request } = transaction;
  request.headers.Authorization = `Bearer ${key}`;
  if ('Idempotency-Key' in request.headers) {
    request.headers['Idempotency-Key'] = randomUUID();
  }
  // Dredd fills the optional conditions with a made-up value: an ETag of no version, which would
  // answer 412 (If-Match) or hide nothing (If-None-Match). The 2xx are tried unconditionally.
  delete request.headers['If-Match'];
  delete request.headers['If-None-Match'];
  // The photo upload is tried once, with a PNG: Dredd cannot make an image from a schema.
  if (transaction.origin.resourceName === '/pets/{petId}/photos' && request.method === 'POST') {
    if (request.headers['Content-Type'] !== 'image/png') {
      transaction.skip = true;
      done();
      return;
    }
    request.body = photo.toString('base64');
    request.bodyEncoding = 'base64';
  }
  const make = fresh[`${request.method} ${transaction.origin.resourceName}`];
  Promise.resolve(make ? make() : {})
    .then(({ body, wholeBody, ...ids }) => {
      if (body) {
        request.body = JSON.stringify({ ...JSON.parse(request.body), ...body });
      }
      if (wholeBody) {
        request.body = JSON.stringify(wholeBody);
      }
      if (request.body && request.headers['Content-Type'] === 'application/json') {
        // The examples name category 1; this database's category is another.
        const parsed = JSON.parse(request.body);
        if ('categoryId' in parsed) {
          request.body = JSON.stringify({ ...parsed, categoryId });
        }
      }
      const [path, query] = transaction.fullPath.split('?');
      let filled = path;
      const template = transaction.origin.resourceName;
      // The example path (`/v1/pets/42/photos/7`) rebuilt from the template with our ids.
      const prefix = path.slice(0, path.length - filledLength(template, path));
      filled = prefix + template.replace(/\{(\w+)\}/g, (_, name) => String(ids[name]));
      transaction.fullPath = query ? `${filled}?${query}` : filled;
      request.uri = transaction.fullPath;
      done();
    })
    .catch((error) => {
      transaction.fail = `could not make fresh data: ${error.message}`;
      done();
    });
});

/** How many characters of `path` its template filled with examples takes (the rest is prefix). */
const filledLength = (template, path) => {
  const pattern = new RegExp(`${template.replace(/\{\w+\}/g, '[^/]+')}$`);
  const match = pattern.exec(path);
  return match ? match[0].length : 0;
};

const JSON_SCHEMA_FORMATS = new Set(['date-time', 'email', 'uri', 'hostname', 'ipv4', 'ipv6']);

/**
 * A part of the document with its references (`#/components/...`) replaced by what they name, and
 * OpenAPI 3.0's `nullable` written as JSON Schema says it (`type: [..., 'null']`).
 */
const resolved = (value) => {
  if (Array.isArray(value)) {
    return value.map(resolved);
  }
  if (value === null || typeof value !== 'object') {
    return value;
  }
  if (typeof value.$ref === 'string') {
    const [, , kind, name] = value.$ref.split('/');
    return resolved(document.components[kind][name]);
  }
  const { nullable, example, format, ...rest } = value;
  const result = Object.fromEntries(
    Object.entries(rest).map(([key, item]) => [key, resolved(item)]),
  );
  // Dredd's validator refuses formats JSON Schema does not define (OpenAPI's int32, int64).
  if (JSON_SCHEMA_FORMATS.has(format)) {
    result.format = format;
  }
  if (nullable === true && typeof result.type === 'string') {
    result.type = [result.type, 'null'];
  }
  return result;
};

// Dredd 14 reads OpenAPI 3 partly: it expects every documented response header, `required` or
// not (CORS's header, sent only to allowed origins; `Idempotent-Replayed`, only on a replay), and
// checks a body against the example, every property of which it requires, instead of the schema.
// The document's own answer for the transaction is given to it instead: its required headers and
// its body's schema.
hooks.beforeEachValidation((transaction) => {
  const operation =
    document.paths[transaction.origin.resourceName][transaction.request.method.toLowerCase()];
  const response = resolved(operation.responses[transaction.expected.statusCode]);
  // `application/json` is met by `application/json; charset=utf-8`: Dredd compares the strings.
  const contentType = transaction.real.headers['content-type'] ?? '';
  if (contentType.split(';')[0].trim() === transaction.expected.headers['Content-Type']) {
    transaction.expected.headers['Content-Type'] = contentType;
  }
  transaction.expected.headers = Object.fromEntries(
    Object.entries(transaction.expected.headers).filter(
      ([name]) => name === 'Content-Type' || response.headers?.[name]?.required === true,
    ),
  );
  const schema = response.content?.['application/json']?.schema;
  if (schema) {
    transaction.expected.bodySchema = schema;
  }
});
