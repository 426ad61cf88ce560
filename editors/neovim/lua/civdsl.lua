-- civdsl in Neovim (0.10 or later): the `civdsl` filetype for *.civ files and the language server.
-- Put this file in ~/.config/nvim/lua/ and call require("civdsl").setup() from init.lua; copy
-- syntax/civdsl.vim to ~/.config/nvim/syntax/ for highlighting.
local M = {}

function M.setup(opts)
  opts = opts or {}
  vim.filetype.add({ extension = { civ = "civdsl" } })
  vim.api.nvim_create_autocmd("FileType", {
    pattern = { "civdsl", "yaml" },
    callback = function(args)
      if vim.bo[args.buf].filetype == "yaml" and opts.scenarios == false then
        return
      end
      local root = vim.fs.root(args.buf, { "game.civ", ".git" }) or vim.fn.getcwd()
      vim.lsp.start({
        name = "civdsl",
        cmd = opts.cmd or { "civdsl", "lsp" },
        root_dir = root,
        init_options = { entries = opts.entries or {} },
      }, { bufnr = args.buf })
      vim.bo[args.buf].commentstring = "# %s"
    end,
  })
end

return M
