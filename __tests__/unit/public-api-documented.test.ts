import path from 'node:path'
import ts from 'typescript'

// Every export of the package's entry points carries TSDoc, and so does every property of the
// exported interfaces and object types (each option says what it does, its default and an example
// where it has one): what an editor shows a user on hover.

const root = path.resolve(__dirname, '..', '..')
const entries = ['src/index.ts', 'src/websocket.ts'].map((file) => path.join(root, file))
const program = ts.createProgram(entries, { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true })
const checker = program.getTypeChecker()

function documented(symbol: ts.Symbol): boolean {
  return ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim() !== ''
}

/** Undocumented exports, and undocumented properties of exported interfaces / object types. */
function missing(entry: string): string[] {
  const source = program.getSourceFile(entry)!
  const out: string[] = []
  for (const exported of checker.getExportsOfModule(checker.getSymbolAtLocation(source)!)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
    if (!documented(symbol)) out.push(exported.name)
    for (const declaration of symbol.declarations ?? []) {
      const members = ts.isInterfaceDeclaration(declaration)
        ? declaration.members
        : ts.isTypeAliasDeclaration(declaration) && ts.isTypeLiteralNode(declaration.type)
          ? declaration.type.members
          : undefined
      for (const member of members ?? []) {
        // A call or construct signature (`__call`, `__new`) is not a member a user reads: a callable
        // interface is documented by its own comment, checked above.
        if (ts.isCallSignatureDeclaration(member) || ts.isConstructSignatureDeclaration(member)) continue
        const property = (member as { symbol?: ts.Symbol }).symbol
        if (property !== undefined && !documented(property)) out.push(`${exported.name}.${property.name}`)
      }
    }
  }
  return out
}

it.each(entries.map((file) => [path.relative(root, file), file]))('%s: every export and option has TSDoc', (_name, file) => {
  expect(checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)!)!).length).toBeGreaterThan(3)
  expect(missing(file)).toEqual([])
})
