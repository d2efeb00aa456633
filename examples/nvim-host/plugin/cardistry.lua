-- Cardistry inside Neovim (>= 0.7): `:Cardistry SCENE [DECK-FILE]` opens a scene in a floating window.
-- The work is in lua/cardistry/init.lua; this file only defines the command.
if vim.g.loaded_cardistry then
  return
end
vim.g.loaded_cardistry = true

vim.api.nvim_create_user_command("Cardistry", function(command)
  require("cardistry").open(command.fargs[1], command.fargs[2])
end, {
  nargs = "*",
  complete = function(lead, line)
    -- The scene (the first argument) from the server's catalogue; a deck file after it.
    if #vim.split(line, "%s+", { trimempty = true }) > (lead == "" and 1 or 2) then
      return vim.fn.getcompletion(lead, "file")
    end
    return vim.tbl_filter(function(name)
      return vim.startswith(name, lead)
    end, require("cardistry").scenes())
  end,
  desc = "Cardistry: open a scene of the server's catalogue in a floating window",
})
