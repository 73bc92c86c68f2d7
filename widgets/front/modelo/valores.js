// @ts-check
// The JSON values the model server handles: two tests its modules share (no DOM, no model).

/**
 * A JSON object: not null, not a list.
 * @param {unknown} x
 * @returns {x is Record<string, any>}
 */
export const esObjeto = (x) => x !== null && typeof x === "object" && !Array.isArray(x);

/**
 * A string.
 * @param {unknown} x
 * @returns {x is string}
 */
export const esTexto = (x) => typeof x === "string";
