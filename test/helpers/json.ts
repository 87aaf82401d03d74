/** The loose type tests use to read JSON answers: any field, any depth, no casts at each access. */
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
