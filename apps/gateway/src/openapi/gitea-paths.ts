/** A path template's shape: parameter names do not matter (`/collaborators/{username}` = `/collaborators/{collaborator}`). */
export function pathShape(template: string): string {
  return template.replace(/\{[^}]+\}/g, '{}');
}

/** Same template, else the same shape with other parameter names (Cairn's `*` is `{filepath}`, Gitea's `{branch}`…). */
export function matchGiteaPath(
  routePath: string,
  method: string,
  paths: Record<string, Record<string, unknown>>,
): string | undefined {
  if (paths[routePath]?.[method]) return routePath;
  const shape = pathShape(routePath);
  return Object.keys(paths).find((p) => pathShape(p) === shape && paths[p][method] !== undefined);
}
