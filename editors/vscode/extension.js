// The civdsl extension: starts `civdsl lsp` for .civ files (and scenario YAML files) and hands it the
// `civdsl.entries` setting. Highlighting comes from syntaxes/civdsl.tmLanguage.json.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("civdsl");
  const [command, ...args] = config.get("command", ["civdsl", "lsp"]);
  const serverOptions = { command, args, transport: TransportKind.stdio };
  const documentSelector = [{ scheme: "file", language: "civdsl" }, { scheme: "untitled", language: "civdsl" }];
  if (config.get("scenarios", true)) {
    documentSelector.push({ scheme: "file", language: "yaml" });
  }
  const clientOptions = {
    documentSelector,
    initializationOptions: { entries: config.get("entries", []) },
    synchronize: { configurationSection: "civdsl" },
  };
  client = new LanguageClient("civdsl", "civdsl", serverOptions, clientOptions);
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
