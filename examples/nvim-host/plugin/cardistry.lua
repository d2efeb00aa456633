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
  complete = function()
    return { "scores", "flashcards", "wallet", "hero", "deck" }
  end,
  desc = "Cardistry: open a scene (scores, flashcards, wallet, hero, deck) in a floating window",
})
