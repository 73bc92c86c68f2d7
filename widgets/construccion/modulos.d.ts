// The modules empaquetar.mjs makes, for TypeScript's check of the front end (tsconfig.json):
// esbuild's text loader turns an imported .py into its text, and the plugin
// archivos-del-calificador makes `calificador:archivos`, {name: text} of widgets/calificador/*.py.
declare module "*.py" {
  const texto: string;
  export default texto;
}

declare module "calificador:archivos" {
  const archivos: Record<string, string>;
  export default archivos;
}
