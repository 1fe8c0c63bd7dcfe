/**
 * Every action the audit log can hold, each with the kind of thing it is about (its entries'
 * `targetType`): the one list. The API writes only these (its `recordAudit` takes a TAuditAction),
 * and the back office words each of them (a record over this list), so an action cannot be added
 * without its words.
 */
export const AUDIT_ACTIONS = {
  'order.approved': 'order',
  'order.declined': 'order',
  'order.completed': 'order',
  'order.cancelled': 'order',
  'order.note_added': 'order',
  'order.question_added': 'order',
  'pet.created': 'pet',
  'pet.updated': 'pet',
  'pet.status_changed': 'pet',
  'pet.photo_added': 'pet',
  'pet.photo_removed': 'pet',
  'pet.photos_reordered': 'pet',
  'session.started': 'session',
  'session.ended': 'account',
  'session.revoked': 'account',
  'session.ended_everywhere': 'account',
  'account.created': 'account',
  'account.signed_up': 'account',
  'account.invited': 'account',
  'account.invitation_resent': 'account',
  'account.invitation_accepted': 'account',
  'account.role_changed': 'account',
  'account.deactivated': 'account',
  'account.reactivated': 'account',
  'account.password_changed': 'account',
  'account.password_reset': 'account',
  'passkey.added': 'account',
  'passkey.removed': 'account',
  'passkey.renamed': 'account',
  'plan.requested': 'plan_request',
  'plan.withdrawn': 'plan_request',
  'plan.approved': 'plan_request',
  'plan.declined': 'plan_request',
  'organization.limits_set': 'organization',
  'api_key.created': 'api_key',
  'api_key.revoked': 'api_key',
  'api_key.rolled': 'api_key',
} as const;

export type TAuditAction = keyof typeof AUDIT_ACTIONS;
export type TAuditTargetKind = (typeof AUDIT_ACTIONS)[TAuditAction];

/** Every action, in the list's order (the audit page's filter offers them so). */
export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as TAuditAction[];

export const isAuditAction = (value: string): value is TAuditAction =>
  Object.hasOwn(AUDIT_ACTIONS, value);
