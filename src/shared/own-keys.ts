/**
 * A copy of `fields` without a prototype: reading a key it leaves out gives
 * undefined, never a value other code set on Object.prototype (with
 * `Object.prototype.codec` set, a pool job without a codec wrote its units
 * through it, and Node's Worker took `name` or `resourceLimits` from it).
 */
export const ownKeysOnly = <T extends object>(fields: T): T => Object.assign(Object.create(null) as T, fields);
