-- Cardistry inside Neovim: a host of `cardistry stdio` in a cells session (docs/protocol.md, "Cells frames").
--
-- The server draws every frame into a grid of cells with the terminal UI's rasteriser and sends the rows that
-- changed as styled runs; this plugin writes them into a scratch buffer shown in a floating window the size of the
-- editor, one highlight group per style (true colour with 'termguicolors', else the server's nearest of 256), and
-- sends keys, mouse clicks, drags and the wheel back as input in cells. Neovim's API only (>= 0.7).
--
--   :Cardistry SCENE [DECK-FILE]     a scene of the server's catalogue (completed from it: `M.scenes()`); a deck
--                                    file (TSV prompt<TAB>answer, or deck JSON) for the scenes that take one
--   vim.g.cardistry_cmd              the server command (default "cardistry"); a string or a list
--   vim.g.cardistry_store            the store directory (default: the server's, as the terminal UI's)
--   vim.g.cardistry_scene_files      scene description files (docs/scenes.md) defined with `scene.define` before
--                                    every scene opens, so `:Cardistry NAME` opens them like the built-in ones
--
-- q closes the window, which stops the server (<Esc> goes to the scene: it closes a card's details). Progress is kept in the store, per deck, as in
-- `cardistry tui` (the same deck file continues where either left off).

local M = {}

local uv = vim.loop
local namespace = vim.api.nvim_create_namespace("cardistry")

-- The one open session: {process, stdin, stdout, buf, win, cols, rows, grid, styles, ...} or nil.
local session = nil

local function send(s, method, params, with_id)
  if not s or s.closed_stdin then
    return
  end
  local message = { jsonrpc = "2.0", method = method, params = params }
  if with_id ~= false then
    s.next_id = s.next_id + 1
    message.id = s.next_id
    s.pending[s.next_id] = method
  end
  s.stdin:write(vim.json.encode(message) .. "\n")
end

-- The scene description files to define (`vim.g.cardistry_scene_files`: a list of paths, or one path).
local function scene_files()
  local files = vim.g.cardistry_scene_files or {}
  if type(files) == "string" then
    files = { files }
  end
  local paths = {}
  for _, file in ipairs(files) do
    paths[#paths + 1] = vim.fn.fnamemodify(vim.fn.expand(file), ":p")
  end
  return paths
end

-- Sends `scene.define` with the description in `path` as it is written (JSON allows no raw line break inside a
-- string, so joining its lines keeps the document). Not a table round trip: an empty object stays an object.
local function define_scene(s, path)
  local ok, lines = pcall(vim.fn.readfile, path)
  if not ok then
    vim.notify("cardistry: cannot read the scene file " .. path, vim.log.levels.ERROR)
    return
  end
  s.next_id = s.next_id + 1
  s.pending[s.next_id] = "scene.define " .. path
  s.stdin:write('{"jsonrpc":"2.0","id":' .. s.next_id .. ',"method":"scene.define","params":{"description":'
    .. table.concat(lines, " ") .. "}}\n")
end

-- The editor's size for the window: every column, every row above the command line.
local function editor_size()
  return vim.o.columns, math.max(1, vim.o.lines - vim.o.cmdheight)
end

local function blank_row(cols)
  local row = {}
  for x = 1, cols do
    row[x] = { " ", -1 }
  end
  return row
end

local function reset_grid(s)
  s.grid = {}
  for y = 1, s.rows do
    s.grid[y] = blank_row(s.cols)
  end
  vim.api.nvim_buf_set_option(s.buf, "modifiable", true)
  local lines = {}
  for y = 1, s.rows do
    lines[y] = string.rep(" ", s.cols)
  end
  vim.api.nvim_buf_set_lines(s.buf, 0, -1, false, lines)
  vim.api.nvim_buf_set_option(s.buf, "modifiable", false)
end

-- A style of the frame as a highlight group (CardistryN): colours as the server sent them, `#rrggbb` (true colour)
-- or a palette index (256 colours); absent colours are the terminal's own.
local function define_style(id, style)
  local group = "Cardistry" .. id
  local value = { cterm = {} }
  for _, attribute in ipairs({ "bold", "underline", "reverse" }) do
    if style[attribute] then
      value[attribute] = true
      value.cterm[attribute] = true
    end
  end
  local function color(name, gui, cterm)
    local c = style[name]
    if type(c) == "string" then
      value[gui] = c
    elseif type(c) == "number" then
      value[cterm] = c
    end
  end
  color("fg", "fg", "ctermfg")
  color("bg", "bg", "ctermbg")
  vim.api.nvim_set_hl(0, group, value)
  return group
end

-- UTF-8 characters of `text`, one per cell (the server sends a run as text of which every character takes one
-- cell, as one character and a count, or as one cluster with its width).
local function characters(text)
  local result = {}
  for character in text:gmatch("[%z\1-\127\194-\244][\128-\191]*") do
    result[#result + 1] = character
  end
  return result
end

-- Writes row y (0-based) of the grid into the buffer, with one highlight per run of one style.
local function draw_row(s, y)
  local row = s.grid[y + 1]
  local pieces = {}
  local spans = {}
  local offset = 0
  local current, start = nil, 0
  for x = 1, s.cols do
    local cell = row[x]
    local text = cell[1]
    if cell[2] ~= current then
      if current and current >= 0 then
        spans[#spans + 1] = { current, start, offset }
      end
      current, start = cell[2], offset
    end
    pieces[#pieces + 1] = text
    offset = offset + #text
  end
  if current and current >= 0 then
    spans[#spans + 1] = { current, start, offset }
  end
  vim.api.nvim_buf_set_lines(s.buf, y, y + 1, false, { table.concat(pieces) })
  vim.api.nvim_buf_clear_namespace(s.buf, namespace, y, y + 1)
  for _, span in ipairs(spans) do
    local group = s.groups[span[1]]
    if group then
      vim.api.nvim_buf_add_highlight(s.buf, namespace, group, y, span[2], span[3])
    end
  end
end

-- Applies a cells frame: a full frame starts the styles over and brings the grid's size; every row replaces its
-- cells from its column on.
local function apply_frame(s, frame)
  if type(frame) ~= "table" or frame.rows == nil then
    return
  end
  if frame.full then
    s.groups = {}
    if frame.grid and (frame.grid.cols ~= s.cols or frame.grid.rows ~= s.rows) then
      s.cols, s.rows = frame.grid.cols, frame.grid.rows
      reset_grid(s)
    end
  end
  if type(frame.styles) == "table" then
    for id, style in pairs(frame.styles) do
      s.groups[tonumber(id)] = define_style(id, style)
    end
  end
  local changed = {}
  for _, row in ipairs(frame.rows) do
    local y, x = row[1], row[2] + 1
    local cells = s.grid[y + 1]
    if cells then
      for index = 3, #row do
        local run = row[index]
        local style, text, width = run[1], run[2], run[3]
        if type(text) == "table" then
          -- [style, [character, count]]: one character in count cells.
          for _ = 1, text[2] do
            if cells[x] then
              cells[x] = { text[1], style }
            end
            x = x + 1
          end
        elseif width and width ~= vim.NIL then
          if cells[x] then
            cells[x] = { text, style }
          end
          if width == 2 and cells[x + 1] then
            cells[x + 1] = { "", style }
          end
          x = x + width
        else
          for _, character in ipairs(characters(text)) do
            if cells[x] then
              cells[x] = { character, style }
            end
            x = x + 1
          end
        end
      end
      changed[y] = true
    end
  end
  if next(changed) == nil then
    return
  end
  vim.api.nvim_buf_set_option(s.buf, "modifiable", true)
  for y in pairs(changed) do
    draw_row(s, y)
  end
  vim.api.nvim_buf_set_option(s.buf, "modifiable", false)
end

local function handle_message(s, message)
  if message.method == "frame" then
    apply_frame(s, message.params)
    return
  end
  if message.id ~= nil and message.id ~= vim.NIL then
    local method = s.pending[message.id]
    s.pending[message.id] = nil
    if message.error then
      vim.notify("cardistry: " .. tostring(method) .. ": " .. tostring(message.error.message), vim.log.levels.ERROR)
      if method == "scene.open" or method == "initialize" then
        M.close()
      end
      return
    end
    if type(message.result) == "table" and message.result.frame then
      apply_frame(s, message.result.frame)
    end
  end
end

local function on_output(s, chunk)
  s.partial = s.partial .. chunk
  while true do
    local newline = s.partial:find("\n", 1, true)
    if not newline then
      break
    end
    local line = s.partial:sub(1, newline - 1)
    s.partial = s.partial:sub(newline + 1)
    if #line > 0 then
      local ok, message = pcall(vim.json.decode, line)
      if ok and type(message) == "table" then
        handle_message(s, message)
      end
    end
  end
end

-- The cell of the grid under the mouse (0-based), clamped to the grid (a drag may leave the window).
local function mouse_cell(s)
  local position = vim.fn.getmousepos()
  local origin = vim.api.nvim_win_get_position(s.win)
  local col = position.screencol - 1 - origin[2]
  local row = position.screenrow - 1 - origin[1]
  col = math.max(0, math.min(s.cols - 1, col))
  row = math.max(0, math.min(s.rows - 1, row))
  return col, row
end

local function pointer(phase)
  return function()
    local s = session
    if not s then
      return
    end
    local col, row = mouse_cell(s)
    send(s, "input.pointer", { phase = phase, col = col, row = row }, false)
  end
end

local function wheel(rows)
  return function()
    local s = session
    if not s then
      return
    end
    local col, row = mouse_cell(s)
    send(s, "input.wheel", { dx = 0, dy = rows, col = col, row = row }, false)
  end
end

local function key(name)
  return function()
    if session then
      send(session, "input.key", { key = name }, false)
    end
  end
end

-- Keys sent to the scene: Vim's h j k l as arrows, the named keys, and every other printable key as itself.
local named_keys = {
  ["<Left>"] = "left", ["<Right>"] = "right", ["<Up>"] = "up", ["<Down>"] = "down",
  h = "left", l = "right", k = "up", j = "down",
  ["<Tab>"] = "tab", ["<S-Tab>"] = "backtab", ["<CR>"] = "enter", ["<Space>"] = "space", ["<BS>"] = "backspace",
  ["<Home>"] = "home", ["<End>"] = "end", ["<PageUp>"] = "pageup", ["<PageDown>"] = "pagedown",
}

local function map_keys(buf)
  local options = { buffer = buf, nowait = true, silent = true }
  for lhs, name in pairs(named_keys) do
    vim.keymap.set("n", lhs, key(name), options)
  end
  local printable = "abcdefgimnoprstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-=[]{};:'\",./?!@#$%^&*()_`~"
  for index = 1, #printable do
    local character = printable:sub(index, index)
    if not named_keys[character] then
      vim.keymap.set("n", character, key(character), options)
    end
  end
  vim.keymap.set("n", "<Bar>", key("|"), options)
  vim.keymap.set("n", "<Bslash>", key("\\"), options)
  vim.keymap.set("n", "<lt>", key("<"), options)
  vim.keymap.set("n", ">", key(">"), options)
  vim.keymap.set("n", "q", M.close, options)
  vim.keymap.set("n", "<Esc>", key("escape"), options)
  vim.keymap.set("n", "<LeftMouse>", pointer("down"), options)
  vim.keymap.set("n", "<LeftDrag>", pointer("move"), options)
  vim.keymap.set("n", "<LeftRelease>", pointer("up"), options)
  vim.keymap.set("n", "<ScrollWheelDown>", wheel(3), options)
  vim.keymap.set("n", "<ScrollWheelUp>", wheel(-3), options)
  vim.keymap.set("n", "<ScrollWheelRight>", function() end, options)
  vim.keymap.set("n", "<ScrollWheelLeft>", function() end, options)
end

-- Follows the editor's size: the window and the grid (`viewport.resize` in cells; a full frame follows).
local function resize()
  local s = session
  if not s or not vim.api.nvim_win_is_valid(s.win) then
    return
  end
  local cols, rows = editor_size()
  vim.api.nvim_win_set_config(s.win, { relative = "editor", row = 0, col = 0, width = cols, height = rows })
  send(s, "viewport.resize", { cols = cols, rows = rows })
end

local function command()
  local cmd = vim.g.cardistry_cmd or "cardistry"
  if type(cmd) == "string" then
    cmd = { cmd }
  end
  local args = {}
  for index = 2, #cmd do
    args[#args + 1] = cmd[index]
  end
  args[#args + 1] = "stdio"
  if vim.g.cardistry_store then
    args[#args + 1] = "--store"
    args[#args + 1] = vim.fn.expand(vim.g.cardistry_store)
  end
  return cmd[1], args
end

-- The server's catalogue, once asked (`M.scenes`).
local catalogue = nil

--- The scenes the server offers, in menu order: what `cardistry stdio` answers `initialize` with (asked once, then
--- kept; an empty list when the server cannot be run). Nothing here names a scene.
function M.scenes()
  if catalogue then
    return catalogue
  end
  local program, args = command()
  local line = vim.json.encode({
    jsonrpc = "2.0", id = 1, method = "initialize",
    params = {
      protocolVersion = "1.0", clientInfo = { name = "cardistry.nvim" }, viewport = { width = 390, height = 844 },
    },
  })
  local argv = { program }
  vim.list_extend(argv, args)
  local ok, reply = pcall(function()
    return vim.json.decode(vim.split(vim.fn.system(argv, line .. "\n"), "\n")[1])
  end)
  if not ok or type(reply) ~= "table" or type(reply.result) ~= "table" then
    return {}
  end
  catalogue = reply.result.scenes
  for _, path in ipairs(scene_files()) do
    local read, described = pcall(function()
      return vim.json.decode(table.concat(vim.fn.readfile(path), "\n"))
    end)
    if read and type(described) == "table" and type(described.name) == "string" then
      catalogue[#catalogue + 1] = described.name
    end
  end
  return catalogue
end

--- Opens `scene` (with the deck file `deck`, for the scenes that take one) in a floating window.
function M.open(scene, deck)
  if not scene or scene == "" then
    vim.notify("usage: :Cardistry SCENE [DECK-FILE] (" .. table.concat(M.scenes(), ", ") .. ")", vim.log.levels.ERROR)
    return
  end
  M.close()
  local cols, rows = editor_size()
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_option(buf, "bufhidden", "wipe")
  vim.api.nvim_buf_set_name(buf, "cardistry://" .. scene)
  local win = vim.api.nvim_open_win(buf, true, {
    relative = "editor", row = 0, col = 0, width = cols, height = rows, style = "minimal", zindex = 50,
  })
  vim.api.nvim_win_set_option(win, "wrap", false)
  vim.api.nvim_win_set_option(win, "sidescrolloff", 0)
  vim.api.nvim_win_set_option(win, "scrolloff", 0)
  local stdin, stdout, stderr = uv.new_pipe(false), uv.new_pipe(false), uv.new_pipe(false)
  local s = {
    buf = buf, win = win, cols = cols, rows = rows, next_id = 0, pending = {}, groups = {}, partial = "",
    stdin = stdin, mouse = vim.o.mouse, errors = "",
  }
  local program, args = command()
  local handle, pid
  handle, pid = uv.spawn(program, { args = args, stdio = { stdin, stdout, stderr } }, function(code)
    stdout:close()
    stderr:close()
    if handle then
      handle:close()
    end
    s.exited = true
    vim.schedule(function()
      if session == s then
        M.close()
      end
      if code ~= 0 and s.errors ~= "" then
        vim.notify("cardistry: " .. s.errors, vim.log.levels.ERROR)
      end
    end)
  end)
  if not handle then
    vim.api.nvim_win_close(win, true)
    vim.notify("cardistry: cannot start " .. program .. ": " .. tostring(pid), vim.log.levels.ERROR)
    return
  end
  s.process, s.pid = handle, pid
  session = s
  reset_grid(s)
  stdout:read_start(vim.schedule_wrap(function(_, chunk)
    if chunk then
      on_output(s, chunk)
    end
  end))
  stderr:read_start(function(_, chunk)
    if chunk then
      s.errors = (s.errors .. chunk):sub(-2000)
    end
  end)
  vim.o.mouse = "a"
  map_keys(buf)
  s.group = vim.api.nvim_create_augroup("cardistry", { clear = true })
  vim.api.nvim_create_autocmd("WinClosed", { group = s.group, pattern = tostring(win), callback = function()
    vim.schedule(M.close)
  end })
  vim.api.nvim_create_autocmd("VimResized", { group = s.group, callback = resize })
  vim.api.nvim_create_autocmd("VimLeavePre", { group = s.group, callback = function()
    M.close(true)
  end })
  send(s, "initialize", {
    protocolVersion = "1.0", clientInfo = { name = "cardistry.nvim" }, clock = "realtime", fps = 30,
    frames = "cells",
    cells = { cols = cols, rows = rows, colors = vim.o.termguicolors and "truecolor" or "256" },
  })
  for _, path in ipairs(scene_files()) do
    define_scene(s, path)
  end
  local open = { scene = scene, options = { persistState = true } }
  if deck and deck ~= "" then
    open.deckFile = vim.fn.fnamemodify(vim.fn.expand(deck), ":p")
  end
  send(s, "scene.open", open)
end

--- Closes the window and stops the server: `shutdown` and `exit`, then SIGTERM if it has not exited within a
--- second (at once when Neovim itself is leaving: `wait`).
function M.close(wait)
  local s = session
  if not s then
    return
  end
  session = nil
  vim.o.mouse = s.mouse
  pcall(vim.api.nvim_del_augroup_by_id, s.group)
  if vim.api.nvim_win_is_valid(s.win) then
    pcall(vim.api.nvim_win_close, s.win, true)
  end
  if not s.exited then
    send(s, "shutdown", vim.empty_dict())
    send(s, "exit", nil, false)
    s.closed_stdin = true
    s.stdin:shutdown(function()
      s.stdin:close()
    end)
    if wait then
      vim.wait(1000, function()
        return s.exited
      end, 10)
      if not s.exited then
        s.process:kill("sigterm")
      end
    else
      local timer = uv.new_timer()
      timer:start(1000, 0, function()
        timer:close()
        if not s.exited then
          s.process:kill("sigterm")
        end
      end)
    end
  end
end

return M
