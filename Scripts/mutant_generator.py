"""Mutants made mechanically from the product's Swift code, for `Scripts/mutants --generate`.

Every candidate is one change to one line (or a swap of two adjacent lines) of a `.swift` file
under Services/ or Shared/, of one of these kinds:

    relational   <  <=  >  >=  ==  !=   each turned into its neighbour (a boundary or a negation)
    logical      &&  ||                 one turned into the other
    negation     if/guard/while C       C negated (or its leading `!` dropped)
    constant     an integer literal     one more or one less
    case         .caseName              another case of the same enum (a name only one enum has)
    return       return true/false      the other
    remove       one statement          deleted (a call, an assignment, a `throw`)
    swap         two statements         of the same indentation, one after the other, swapped

Comments and string literals are never changed; a line inside a multi-line string is passed
over. The candidates are listed in a fixed order and drawn at random with a seed, so that the
same seed on the same tree draws the same mutants.
"""
import os
import random
import re

ROOTS = ("Services", "Shared")
KINDS = ("relational", "logical", "negation", "constant", "case", "return", "remove", "swap")

RELATIONAL = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
# An operator with spaces on both sides: never a generic's `<T>`, an arrow or an assignment.
RELATIONAL_PATTERN = re.compile(r"(?<= )(<=|>=|==|!=|<|>)(?= )")
LOGICAL_PATTERN = re.compile(r"(?<= )(&&|\|\|)(?= )")
# An integer literal standing alone: not in a name, a float, a hex digit run or a range's dots.
INTEGER_PATTERN = re.compile(r"(?<![\w.])(\d+)(?![\w.])")
CONDITION_PATTERN = re.compile(r"^(\s*(?:\}\s*else\s+)?(?:if|guard|while)\s+)(.+?)(\s*(?:\{|else\s*\{)\s*)$")
# An implicit member (`.portrait` after a space, `(`, `[`, `,`, `:` or `=`): not a property read.
CASE_USE_PATTERN = re.compile(r"(?<=[\s(\[,:=])\.([a-z]\w*)\b(?!\s*\()")
DECLARATION_WORDS = ("let ", "var ", "func ", "init", "deinit", "case ", "default", "return", "guard ", "if ",
                     "else", "for ", "while ", "switch ", "do ", "do{", "catch", "defer", "import ", "@", "#",
                     "public ", "private ", "fileprivate ", "internal ", "static ", "struct ", "class ", "enum ",
                     "extension ", "protocol ", "typealias ", "final ", "override ", "mutating ", "nonisolated ",
                     "associatedtype ", "open ", "indirect ", "lazy ", "weak ", "unowned ", "convenience ", "required ",
                     "get ", "get{", "set ", "set{", "willSet", "didSet", "some ", "any ")


class Candidate:
    """One mutant: in `file` (relative to the root), line `line` (1-based) becomes `faulty` (with
    `swap`, lines `line` and `line + 1` change places)."""

    def __init__(self, kind, file, line, original, faulty):
        self.kind, self.file, self.line, self.original, self.faulty = kind, file, line, original, faulty

    @property
    def id(self):
        return f"{self.kind}:{self.file}:{self.line}"

    def apply(self, text):
        """`text` (the file as it is) with this mutant in; None when the line is not what it was."""
        lines = text.split("\n")
        index = self.line - 1
        if index >= len(lines) or lines[index] != self.original.split("\n")[0]:
            return None
        if self.kind == "swap":
            if index + 1 >= len(lines) or "\n".join(lines[index:index + 2]) != self.original:
                return None
            lines[index], lines[index + 1] = lines[index + 1], lines[index]
        else:
            lines[index] = self.faulty
        return "\n".join(lines)

    def describe(self):
        """The change in a line: what the line said, and what it says now."""
        if self.kind == "swap":
            first, second = self.original.split("\n")
            return f"swapped `{first.strip()}` and `{second.strip()}`"
        if self.kind == "remove":
            return f"removed `{self.original.strip()}`"
        return f"`{self.original.strip()}` -> `{self.faulty.strip()}`"


def product_files(root):
    """The product's Swift files, relative to `root`, sorted."""
    found = []
    for top in ROOTS:
        for folder, _, names in os.walk(os.path.join(root, top)):
            found += [os.path.relpath(os.path.join(folder, name), root) for name in names if name.endswith(".swift")]
    return sorted(found)


def code_mask(line):
    """`line` with every comment and string literal's content blanked (same length), so that
    patterns match code only; None for a line that opens or closes a multi-line string."""
    if '"""' in line:
        return None
    masked, in_string, index = [], False, 0
    while index < len(line):
        char = line[index]
        if in_string:
            if char == "\\":
                masked.append("  ")
                index += 2
                continue
            masked.append('"' if char == '"' else " ")
            in_string = char != '"'
        elif char == '"':
            masked.append(char)
            in_string = True
        elif line.startswith("//", index):
            masked.append(" " * (len(line) - index))
            break
        else:
            masked.append(char)
        index += 1
    return "".join(masked)[:len(line)]


def code_lines(text):
    """(number, line, masked) for each line of code outside multi-line strings."""
    inside = False
    for number, line in enumerate(text.split("\n"), 1):
        if line.count('"""') % 2 == 1:
            inside = not inside
            continue
        if inside:
            continue
        masked = code_mask(line)
        if masked is not None and masked.strip():
            yield number, line, masked


def enum_cases(root, files):
    """Each case name declared by exactly one enum of the product, with the other cases of its enum."""
    owners = {}
    for path in files:
        with open(os.path.join(root, path), encoding="utf-8") as handle:
            text = handle.read()
        for match in re.finditer(r"\benum\s+(\w+)[^{]*\{(.*?)\n\}", text, re.S):
            body = match.group(2)
            names = []
            for declaration in re.findall(r"^\s*(?:indirect\s+)?case\s+([^\n]+)", body, re.M):
                for part in re.sub(r"\([^)]*\)|=\s*[^,]+", "", declaration).split(","):
                    name = part.strip()
                    if re.fullmatch(r"[a-z]\w*", name):
                        names.append(name)
            for name in names:
                owners.setdefault(name, []).append((match.group(1), names))
    return {name: [other for other in found[0][1] if other != name]
            for name, found in owners.items() if len(found) == 1 and len(found[0][1]) > 1}


def top_level_comma(expression):
    """Whether `expression` has a comma outside any brackets (a list of conditions)."""
    depth = 0
    for char in expression:
        depth += char in "([{"
        depth -= char in ")]}"
        if char == "," and depth == 0:
            return True
    return False


def is_simple_statement(masked):
    """Whether a masked line is a whole statement that could be deleted: a call, an assignment,
    `throw`, not a declaration, a branch, a brace or part of a longer expression."""
    stripped = masked.strip()
    if not stripped or stripped.startswith(DECLARATION_WORDS) or stripped[0] in "}).]?:,&|+-*/<>=":
        return False
    if stripped[-1] in "{([,=&|+-*/<>?:\\" or stripped.endswith(" in"):
        return False
    return (stripped.count("(") == stripped.count(")") and stripped.count("[") == stripped.count("]")
            and stripped.count("{") == stripped.count("}"))


def candidates(root):
    """Every candidate mutant of the product, in a fixed order."""
    files = product_files(root)
    cases = enum_cases(root, files)
    found = []
    for path in files:
        with open(os.path.join(root, path), encoding="utf-8") as handle:
            text = handle.read()
        lines = list(code_lines(text))
        for position, (number, line, masked) in enumerate(lines):
            add = lambda kind, faulty: found.append(Candidate(kind, path, number, line, faulty))
            for match in RELATIONAL_PATTERN.finditer(masked):
                add("relational", line[:match.start()] + RELATIONAL[match.group(1)] + line[match.end():])
            for match in LOGICAL_PATTERN.finditer(masked):
                add("logical", line[:match.start()] + ("||" if match.group(1) == "&&" else "&&") + line[match.end():])
            condition = CONDITION_PATTERN.match(masked)
            # One condition only: `if a, b` has no single expression to negate.
            if condition and not re.search(r"\b(let|var|case)\b|#available", condition.group(2)) and not top_level_comma(condition.group(2)):
                start, end = condition.start(2), condition.end(2)
                original = line[start:end]
                negated = original[1:] if re.fullmatch(r"!\w[\w.]*", original) else f"!({original})"
                add("negation", line[:start] + negated + line[end:])
            if not masked.lstrip().startswith(("case ", "@")):
                for match in INTEGER_PATTERN.finditer(masked):
                    value = int(match.group(1))
                    changed = value + 1 if value == 0 or (number + match.start()) % 2 == 0 else value - 1
                    add("constant", line[:match.start()] + str(changed) + line[match.end():])
            for match in CASE_USE_PATTERN.finditer(masked):
                others = cases.get(match.group(1))
                if others:
                    other = others[(number + match.start()) % len(others)]
                    add("case", line[:match.start(1)] + other + line[match.end(1):])
            for word, other in (("true", "false"), ("false", "true")):
                match = re.search(rf"\breturn {word}\b", masked)
                if match:
                    add("return", line[:match.start()] + f"return {other}" + line[match.end():])
            if is_simple_statement(masked) and position > 0 and not lines[position - 1][2].rstrip().endswith(("(", ",", "=", "&&", "||", "?", ":", "+", "-", ".")):
                indent = len(line) - len(line.lstrip())
                add("remove", " " * indent)
                following = lines[position + 1] if position + 1 < len(lines) else None
                if (following and following[0] == number + 1 and is_simple_statement(following[2])
                        and len(following[1]) - len(following[1].lstrip()) == indent):
                    found.append(Candidate("swap", path, number, line + "\n" + following[1], following[1] + "\n" + line))
    return found


def draw(root, count, seed, kinds=KINDS):
    """`count` candidates of `kinds` drawn at random with `seed` (fewer when there are fewer)."""
    pool = [candidate for candidate in candidates(root) if candidate.kind in kinds]
    return random.Random(seed).sample(pool, min(count, len(pool)))
