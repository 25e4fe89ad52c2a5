# mkman.awk: writes the section 3 pages of the OpenSHMEM routines from their templates.
#
#   awk -v out=DIR -v version=V -f mkman.awk C.i CXX.i TEMPLATE.3.in...
#
# C.i is man/man3/src/synopsis.h run through the C preprocessor: every declaration of
# <shmem.h> and of <tandem/nbc.h>, the nonblocking collectives of <shmemx.h> (the typed ones
# expanded from the type tables of <tandem/typetable.h>), and one
# "@type TYPE @name TYPENAME @end" record per row of those tables.  CXX.i is the same header
# run through the C++ preprocessor: the overloads of <tandem/generic.h> and <tandem/nbc.h>, whose twins the C11
# _Generic selections are.
#
# A template is a page with directive comments and a line "@SYNOPSIS@":
#   .\" tandem-man routines: PATTERN...            C routines, one block per directive line
#   .\" tandem-man deprecated: PATTERN...          deprecated C routines, the same way
#   .\" tandem-man generic: NAME...                C11 _Generic / C++ overloaded names
#   .\" tandem-man deprecated-generic: NAME...     the same, deprecated
# A PATTERN is a routine name in which TYPENAME stands for any TYPENAME of the tables and
# SIZE for any number.  The synopsis lists every declaration a pattern matches, in the
# header's order; the generic names are shown once with TYPE for the varying type, followed
# by the list of types that their overloads cover.  Every name of a page other than the
# page's own gets a link page, ".so man3/PAGE.3".  It is an error for a declared routine or
# an overloaded name to be on no page or on two, and for a pattern to match nothing, so
# that the pages cannot drift from the headers.
#
# Only POSIX awk is used (the build runs it with whatever awk configure found).

function fail(msg) {
  print "mkman.awk: " msg > "/dev/stderr"
  failed = 1
  exit 1
}

function trim(s) {
  sub(/^[ \t]+/, "", s)
  sub(/[ \t]+$/, "", s)
  return s
}

# Parses "RET NAME(TYPE NAME, ...)" into P_ret, P_name, P_n, P_type[i], P_arg[i] (P_arg is
# "" for a parameter without a name, "..." for the variadic tail).
function parse_decl(text,    p, head, params, n, parts, i, param) {
  text = trim(text)
  gsub(/[ \t]+/, " ", text)
  # void (shmem_sync)(...): a name parenthesised against a function-like macro.
  if (match(text, /\([A-Za-z_][A-Za-z0-9_]*\) ?\(/)) {
    head = substr(text, RSTART + 1, RLENGTH - 1)
    sub(/\) ?\($/, "(", head)
    text = substr(text, 1, RSTART - 1) head substr(text, RSTART + RLENGTH)
  }
  p = index(text, "(")
  if (p == 0 || substr(text, length(text)) != ")") return 0
  head = trim(substr(text, 1, p - 1))
  params = trim(substr(text, p + 1, length(text) - p - 1))
  if (!match(head, /[A-Za-z_][A-Za-z0-9_]*$/)) return 0
  P_name = substr(head, RSTART)
  P_ret = trim(substr(head, 1, RSTART - 1))
  P_n = 0
  if (params == "void" || params == "") return 1
  n = split(params, parts, ",")
  for (i = 1; i <= n; i++) {
    param = trim(parts[i])
    P_n++
    if (param == "...") {
      P_type[P_n] = ""
      P_arg[P_n] = "..."
    } else if (match(param, /[ *][A-Za-z_][A-Za-z0-9_]*$/) && !(substr(param, RSTART + 1) in c_type_word)) {
      P_type[P_n] = trim(substr(param, 1, RSTART))
      P_arg[P_n] = substr(param, RSTART + 1)
    } else {
      P_type[P_n] = param
      P_arg[P_n] = ""
    }
  }
  return 1
}

# The declarations of <shmem.h>, in the header's order.
function read_declarations(    pieces, n, i, name, k) {
  n = split(ctext, pieces, ";")
  for (i = 1; i <= n; i++) {
    if (pieces[i] !~ /\(/ || pieces[i] ~ /typedef|[{}]/) continue
    if (!parse_decl(pieces[i])) fail("cannot read the declaration \"" trim(pieces[i]) "\"")
    name = P_name
    if (name ~ /^tandem_/) continue
    if (name in d_ret) fail(name " is declared twice")
    ndecl++
    decl[ndecl] = name
    d_ret[name] = P_ret
    d_n[name] = P_n
    for (k = 1; k <= P_n; k++) {
      if (P_arg[k] == "") fail(name ": parameter " k " (" P_type[k] ") has no name in the header")
      d_type[name, k] = P_type[k]
      d_arg[name, k] = P_arg[k]
    }
  }
}

# The C++ overloads of <tandem/generic.h>: "inline RET NAME(PARAMS) { [return] TARGET(...); }".
function read_overloads(    pieces, n, i, p, head, body, k) {
  n = split(cxxtext, pieces, /inline /)
  for (i = 2; i <= n; i++) {
    p = index(pieces[i], "{")
    if (p == 0) fail("cannot read the overload \"" trim(pieces[i]) "\"")
    head = substr(pieces[i], 1, p - 1)
    body = trim(substr(pieces[i], p + 1))
    sub(/^return /, "", body)
    if (!parse_decl(head) || !match(body, /^[A-Za-z_][A-Za-z0-9_]*/))
      fail("cannot read the overload \"" trim(pieces[i]) "\"")
    nover++
    o_name[nover] = P_name
    o_target[nover] = substr(body, 1, RLENGTH)
    o_ret[nover] = P_ret
    o_n[nover] = P_n
    for (k = 1; k <= P_n; k++) o_type[nover, k] = P_type[k]
    if (!(o_target[nover] in d_ret)) fail(P_name ": its overload calls " o_target[nover] ", which is not declared")
    if (d_n[o_target[nover]] != P_n) fail(P_name ": an overload and " o_target[nover] " differ in their parameters")
  }
}

# The TYPENAMEs of the type tables, as a regular expression, and the rank of each C type.
function read_types(    n, recs, i, t, nm) {
  n = split(typetext, recs, /@end/)
  for (i = 1; i <= n; i++) {
    if (!match(recs[i], /@type .* @name /)) continue
    t = trim(substr(recs[i], RSTART + 6, RLENGTH - 12))
    nm = trim(substr(recs[i], RSTART + RLENGTH))
    gsub(/[ \t]+/, " ", t)
    if (!(t in type_rank)) type_rank[t] = ++ntypes
    if (!(nm in typename_seen)) {
      typename_seen[nm] = 1
      typename_re = typename_re (typename_re == "" ? "" : "|") nm
    }
  }
  if (typename_re == "") fail("no type table rows in the C preprocessor's output")
}

# --- Rendering -----------------------------------------------------------------------------

# One prototype as a .BI request: bold text, italic parameter names.
function render(ret, name, n, types, args,    s, k, sep) {
  if (n == 0) return ".B \"" ret (ret ~ /\*$/ ? "" : " ") name "(void);\""
  s = ".BI \"" ret (ret ~ /\*$/ ? "" : " ") name "("
  for (k = 1; k <= n; k++) {
    sep = k > 1 ? ", " : ""
    if (args[k] == "...") {
      s = s sep "..."
      continue
    }
    s = s sep types[k] (types[k] ~ /\*$/ ? "" : " ") "\" " args[k] " \""
  }
  return s ");\""
}

function render_decl(name,    k, types, args) {
  for (k = 1; k <= d_n[name]; k++) {
    types[k] = d_type[name, k]
    args[k] = d_arg[name, k]
  }
  return render(d_ret[name], name, d_n[name], types, args)
}

# The type that varies between overloads, without const and the pointer.
function base_type(t) {
  sub(/^const /, "", t)
  sub(/ ?\*$/, "", t)
  return t
}

function generic_type(t,    s) {
  s = t ~ /^const / ? "const TYPE" : "TYPE"
  return t ~ /\*$/ ? s " *" : s
}

# Adds TYPE to the comma-separated list held in g_types (in the tables' order).
function add_type(t,    n, list, i, out, placed) {
  n = split(g_types, list, ",")
  out = ""
  placed = 0
  for (i = 1; i <= n; i++) {
    if (list[i] == t) return
    if (!placed && rank(t) < rank(list[i])) {
      out = out (out == "" ? "" : ",") t
      placed = 1
    }
    out = out (out == "" ? "" : ",") list[i]
  }
  if (!placed) out = out (out == "" ? "" : ",") t
  g_types = out
}

function rank(t) { return t in type_rank ? type_rank[t] : 1000 }

# The synopsis lines of a generic name: one prototype per arity, TYPE where the overloads
# of that arity differ.  Sets g_types to the types covered (empty when nothing varies).
function render_generic(name,    lines, k, n, a, arities, first_of, first, p, pos, varies, types, args, cname) {
  lines = ""
  g_types = ""
  cname = name in d_ret ? name : ""
  n = 0
  for (k = 1; k <= nover; k++)
    if (o_name[k] == name && !(o_n[k] in first_of)) {
      first_of[o_n[k]] = k
      arities[++n] = o_n[k]
    }
  if (n == 0) fail(name ": no C++ overload of that name in <tandem/generic.h>")
  for (a = 1; a <= n; a++) {
    first = first_of[arities[a]]
    # Which positions vary (0 is the return type); pos is the first of them.
    for (p = 0; p <= o_n[first]; p++) varies[p] = 0
    for (k = first + 1; k <= nover; k++) {
      if (o_name[k] != name || o_n[k] != o_n[first]) continue
      if (o_ret[k] != o_ret[first]) varies[0] = 1
      for (p = 1; p <= o_n[first]; p++) if (o_type[k, p] != o_type[first, p]) varies[p] = 1
    }
    pos = -1
    for (p = o_n[first]; p >= 0; p--) if (varies[p]) pos = p
    if (pos >= 0)
      for (k = first; k <= nover; k++)
        if (o_name[k] == name && o_n[k] == o_n[first]) add_type(base_type(pos ? o_type[k, pos] : o_ret[k]))
    # A C routine of the same name and shape (the deprecated shmem_wait_until on long) is
    # one more member of the set.
    if (cname != "" && pos >= 0 && d_n[cname] == o_n[first] && same_shape(cname, first, varies)) {
      add_type(base_type(pos ? d_type[cname, pos] : d_ret[cname]))
      cname = ""
    }
    for (p = 1; p <= o_n[first]; p++) {
      types[p] = varies[p] ? generic_type(o_type[first, p]) : o_type[first, p]
      args[p] = d_arg[o_target[first], p]
    }
    lines = lines render(varies[0] ? generic_type(o_ret[first]) : o_ret[first], name, o_n[first], types, args) "\n"
  }
  return lines
}

function same_shape(cname, first, varies,    p) {
  if (!varies[0] && d_ret[cname] != o_ret[first]) return 0
  for (p = 1; p <= o_n[first]; p++) if (!varies[p] && d_type[cname, p] != o_type[first, p]) return 0
  return 1
}

# The types of a list, for a filled paragraph (no break inside "long double").
function type_list(list,    s) {
  s = list
  gsub(/ /, "\\ ", s)
  gsub(/,/, ", \\%", s)
  return "\\%" s
}

# --- Templates -----------------------------------------------------------------------------

# Claims NAME for the current page (a name may be both a C routine and a generic name of
# one page: shmem_sync, shmem_wait_until).
function claim(name) {
  if (name in owner && owner[name] != page) fail(name " is on two pages: " owner[name] "(3) and " page "(3)")
  if (name in owner) return
  owner[name] = page
  page_names[++npage_names] = name
}

# The routines that a directive's patterns name, as synopsis lines.
function routines(patterns,    n, list, i, re, k, lines, matched) {
  n = split(patterns, list, " ")
  lines = ""
  for (i = 1; i <= n; i++) {
    re = list[i]
    gsub(/TYPENAME/, "(" typename_re ")", re)
    gsub(/SIZE/, "[0-9]+", re)
    re = "^" re "$"
    matched = 0
    for (k = 1; k <= ndecl; k++) {
      if (decl[k] !~ re) continue
      matched = 1
      claim(decl[k])
      if (decl[k] in listed) continue
      listed[decl[k]] = 1
      lines = lines render_decl(decl[k]) "\n"
    }
    if (!matched) fail(page ".3.in: " list[i] " matches no routine of <shmem.h>")
  }
  return lines
}

# The synopsis lines of generic names; sets g_paragraph to the paragraph that says which
# types TYPE stands for (once when every name covers the same ones, else name by name).
function generics(names,    n, list, i, lines, common, mixed, notes) {
  n = split(names, list, " ")
  lines = ""
  common = ""
  mixed = 0
  notes = ""
  for (i = 1; i <= n; i++) {
    claim(list[i])
    lines = lines (lines == "" ? "" : ".sp\n") render_generic(list[i])
    if (g_types == "") continue
    if (common == "") common = g_types
    else if (common != g_types) mixed = 1
    notes = notes (notes == "" ? "" : ".br\n") ".BR " list[i] ":\n" type_list(g_types) ".\n"
  }
  if (notes == "") g_paragraph = ""
  else if (!mixed) g_paragraph = ".PP\nwhere\n.I TYPE\nis any of\n" type_list(common) ".\n"
  else g_paragraph = ".PP\nwhere\n.I TYPE\nis, for\n" notes
  if (notes != "")
    g_paragraph = g_paragraph "In C11 a \\fB_Generic\\fP selection picks the typed routine; " \
      "in C++ each type has an overload.\n"
  return lines
}

# Everything between two headings of the synopsis, as a no-fill block.
function block(lines) { return ".nf\n" lines ".fi\n" }

function synopsis(    s, i, lines, dep) {
  s = ".nf\n.B #include <" (page ~ /^shmemx_/ ? "shmemx" : "shmem") ".h>\n.fi\n"
  if (t_generic != "") {
    lines = generics(t_generic)
    s = s ".SS \"C11 and C++\"\n" block(lines) g_paragraph ".SS C\n"
  }
  # The deprecated patterns first: a routine that a pattern of each kind names (the short
  # forms of shmem_TYPENAME_wait_until) is listed as deprecated.
  dep = ""
  for (i = 1; i <= t_ndeprecated; i++) dep = dep (i > 1 ? ".sp\n" : "") routines(t_deprecated[i])
  lines = ""
  for (i = 1; i <= t_nroutines; i++) lines = lines (i > 1 ? ".sp\n" : "") routines(t_routines[i])
  if (lines != "") s = s block(lines)
  g_paragraph = ""
  if (t_deprecated_generic != "") dep = dep (dep == "" ? "" : ".sp\n") generics(t_deprecated_generic)
  if (dep != "") s = s ".SS Deprecated\n" block(dep) g_paragraph
  return s
}

function new_template(file) {
  t_file = file
  page = file
  sub(/.*\//, "", page)
  sub(/\.3\.in$/, "", page)
  if (page in page_seen) fail(page ".3.in is given twice")
  page_seen[page] = 1
  t_nlines = 0
  t_nroutines = 0
  t_ndeprecated = 0
  t_generic = ""
  t_deprecated_generic = ""
  npage_names = 0
}

function directive(line,    kind, rest) {
  rest = line
  sub(/^\.\\" tandem-man /, "", rest)
  kind = rest
  sub(/:.*/, "", kind)
  sub(/^[^:]*: */, "", rest)
  if (kind == "routines") t_routines[++t_nroutines] = rest
  else if (kind == "deprecated") t_deprecated[++t_ndeprecated] = rest
  else if (kind == "generic") t_generic = trim(t_generic " " rest)
  else if (kind == "deprecated-generic") t_deprecated_generic = trim(t_deprecated_generic " " rest)
  else fail(t_file ": unknown directive \"" line "\"")
}

function finish_template(    file, i, line, syn, found, self) {
  if (t_file == "") return
  syn = synopsis()
  self = 0
  for (i = 1; i <= npage_names; i++) if (page_names[i] == page) self = 1
  if (!self) fail(page ".3.in: the page's own name is none of its routines")
  file = out "/" page ".3"
  found = 0
  print ".\\\" Written by man/mkman.sh from man/man3/src/" page ".3.in and <shmem.h>: edit those." > file
  for (i = 1; i <= t_nlines; i++) {
    line = t_line[i]
    if (line == "@SYNOPSIS@") {
      printf "%s", syn > file
      found = 1
      continue
    }
    gsub(/@VERSION@/, version, line)
    print line > file
    # Neither hyphenation nor justification: the names of routines are long words that
    # must not be broken, and would leave lines that cannot be spread (HY keeps groff's man
    # macros from turning hyphenation back on at each paragraph).
    if (line ~ /^\.TH /) print ".nr HY 0\n.nh\n.ad l" > file
  }
  close(file)
  if (!found) fail(t_file ": no @SYNOPSIS@ line")
  for (i = 1; i <= npage_names; i++) {
    if (page_names[i] == page) continue
    if (page_names[i] in page_seen) fail(page_names[i] " has a page of its own and is on " page "(3) too")
    link[page_names[i]] = page
  }
  t_file = ""
}

BEGIN {
  split("int long short char double float signed unsigned void", words, " ")
  for (w in words) c_type_word[words[w]] = 1
}

FNR == 1 {
  fileno++
  if (fileno == 2) read_declarations()
  if (fileno == 3) {
    read_overloads()
    read_types()
  }
  if (fileno >= 3) {
    finish_template()
    new_template(FILENAME)
  }
}

fileno <= 2 && /^# [0-9]+ "/ {
  where = $0
  sub(/^# [0-9]+ "/, "", where)
  sub(/".*/, "", where)
  next
}

fileno <= 2 && /^#/ { next }

fileno == 1 && (where ~ /(^|\/)shmem\.h$/ || where ~ /(^|\/)tandem\/(api|nbc)\.h$/) { ctext = ctext " " $0; next }
fileno == 1 && where ~ /(^|\/)synopsis\.h$/ { typetext = typetext " " $0; next }
fileno == 2 && where ~ /(^|\/)tandem\/(generic|nbc)\.h$/ { cxxtext = cxxtext " " $0; next }
fileno <= 2 { next }

/^\.\\" tandem-man / { directive($0); next }
{ t_line[++t_nlines] = $0 }

END {
  if (failed) exit 1
  if (fileno < 3) fail("usage: awk -v out=DIR -v version=V -f mkman.awk C.i CXX.i TEMPLATE.3.in...")
  finish_template()
  for (k = 1; k <= ndecl; k++)
    if (!(decl[k] in owner)) fail(decl[k] " is declared in <shmem.h> or <tandem/nbc.h> but on no page: add it to a template")
  for (k = 1; k <= nover; k++)
    if (!(o_name[k] in owner)) fail(o_name[k] " is overloaded in <tandem/generic.h> or <tandem/nbc.h> but on no page")
  for (name in link) {
    file = out "/" name ".3"
    print ".so man3/" link[name] ".3" > file
    close(file)
  }
}
