// A CommonJS file (node16/nodenext) reaches the ESM-only package with import().
async function total(): Promise<bigint> {
  const { countSync } = await import('nqueens-wasm');
  return countSync(8).total;
}
export = total;
