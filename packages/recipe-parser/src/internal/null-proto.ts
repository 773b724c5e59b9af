/** A copy of a lookup table without a prototype: `table['toString']` is undefined. */
export function nullProto<T extends object>(table: T): T {
  return Object.assign(Object.create(null) as T, table);
}
