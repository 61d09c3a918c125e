// cairn/data-access: a data-owning service touches its tables only in `*.repository.ts` files (docs/architecture.md);
// type-only imports of the generated client are fine. Which files may is the config's choice.

const MODEL_OPERATIONS = new Set([
  'findUnique', 'findUniqueOrThrow', 'findFirst', 'findFirstOrThrow', 'findMany', 'create', 'createMany',
  'createManyAndReturn', 'update', 'updateMany', 'updateManyAndReturn', 'upsert', 'delete', 'deleteMany', 'count',
  'aggregate', 'groupBy',
]);
const CLIENT_METHODS = new Set([
  '$transaction', '$queryRaw', '$queryRawUnsafe', '$executeRaw', '$executeRawUnsafe', '$queryRawTyped',
]);
const CLIENT_NAMES = new Set(['prisma', 'tx', 'db', 'client']);
const GENERATED_CLIENT = /\/generated\/prisma\//;

const nameOf = (node) =>
  node.type === 'Identifier' ? node.name : node.type === 'MemberExpression' && !node.computed ? node.property.name : null;

/** @type {import('eslint').Rule.RuleModule} */
export const dataAccessRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Tables are touched only by *.repository.ts files' },
    schema: [],
    messages: {
      model: '`{{call}}` touches a table outside a *.repository.ts file: add a repository method named for what you need.',
      client: '`{{method}}` is the Prisma client\'s: keep it in a *.repository.ts file (or open the transaction through the service\'s `Transactions`).',
      runtime: 'The generated Prisma client\'s runtime is for repositories and the prisma folder only (use `import type` for row types).',
    },
  },
  create(context) {
    const checkImport = (node) => {
      if (!node.source || !GENERATED_CLIENT.test(node.source.value)) return;
      if (node.importKind === 'type' || node.exportKind === 'type') return;
      const specifiers = node.specifiers ?? [];
      if (specifiers.length > 0 && specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type')) return;
      context.report({ node, messageId: 'runtime' });
    };
    return {
      ImportDeclaration: checkImport,
      ExportNamedDeclaration: checkImport,
      ExportAllDeclaration: checkImport,
      MemberExpression(node) {
        if (node.computed) return;
        const property = node.property.name;
        if (CLIENT_METHODS.has(property)) {
          context.report({ node, messageId: 'client', data: { method: property } });
          return;
        }
        // `<client>.<model>.<operation>`: the node is `<client>.<model>`'s parent member.
        if (!MODEL_OPERATIONS.has(property) || node.object.type !== 'MemberExpression' || node.object.computed) return;
        const client = nameOf(node.object.object);
        if (client && CLIENT_NAMES.has(client)) {
          context.report({ node, messageId: 'model', data: { call: `${client}.${node.object.property.name}.${property}` } });
        }
      },
    };
  },
};
