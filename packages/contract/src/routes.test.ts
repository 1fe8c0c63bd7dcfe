import { describe, expect, it } from 'vitest';
import { contract } from './contract';
import { CONTRACT_ROUTES, routesOf } from './routes';

describe('the route list', () => {
  it('names every operation of the contract with its method and path', () => {
    expect(
      CONTRACT_ROUTES.map(({ name, route }) => `${name} ${route.method} ${route.path}`),
    ).toEqual([
      'listPets GET /v1/pets',
      'createPet POST /v1/pets',
      'getPet GET /v1/pets/:petId',
      'updatePet PATCH /v1/pets/:petId',
      'addPetPhoto POST /v1/pets/:petId/photos',
      'deletePetPhoto DELETE /v1/pets/:petId/photos/:photoId',
      'reorderPetPhotos PUT /v1/pets/:petId/photos/order',
      'listOrders GET /v1/store/orders',
      'placeOrder POST /v1/store/orders',
      'getOrder GET /v1/store/orders/:orderId',
      'approveOrder POST /v1/store/orders/:orderId/approve',
      'completeOrder POST /v1/store/orders/:orderId/complete',
      'declineOrder POST /v1/store/orders/:orderId/decline',
      'listOrderNotes GET /v1/store/orders/:orderId/notes',
      'addOrderNote POST /v1/store/orders/:orderId/notes',
      'askAdopter POST /v1/store/orders/:orderId/questions',
      'getOrderByLink POST /v1/store/order-links/lookup',
      'confirmOrderByLink POST /v1/store/order-links/confirm',
      'sendOrderLinks POST /v1/store/order-links',
      'cancelOrder POST /v1/store/orders/:orderId/cancel',
      'listCategories GET /v1/categories',
      'getCurrentKey GET /v1/me',
      'listEvents GET /v1/events',
      'listWebhookEndpoints GET /v1/webhook-endpoints',
      'createWebhookEndpoint POST /v1/webhook-endpoints',
      'getWebhookEndpoint GET /v1/webhook-endpoints/:endpointId',
      'updateWebhookEndpoint PATCH /v1/webhook-endpoints/:endpointId',
      'deleteWebhookEndpoint DELETE /v1/webhook-endpoints/:endpointId',
      'rotateWebhookSecret POST /v1/webhook-endpoints/:endpointId/rotate-secret',
      'testWebhookEndpoint POST /v1/webhook-endpoints/:endpointId/test',
      'listWebhookDeliveries GET /v1/webhook-endpoints/:endpointId/deliveries',
      'retryWebhookDelivery POST /v1/webhook-endpoints/:endpointId/deliveries/:deliveryId/retry',
    ]);
  });

  it('walks any router, nested or not', () => {
    expect(routesOf(contract.pets).map(({ name }) => name)).toEqual([
      'listPets',
      'createPet',
      'getPet',
      'updatePet',
      'addPetPhoto',
      'deletePetPhoto',
      'reorderPetPhotos',
    ]);
    expect(routesOf({})).toEqual([]);
  });
});
