"""Formulas with live numbers for the checks page: the worked answer of a generated RoPE problem
(posviz.lab.exercises.problem) as LaTeX lines, for st.latex. Plain string work on the problem's dict."""


def _frac(num, den, body=""):
    """num/den (times `body`, e.g. \\sqrt{3}) as LaTeX, sign in front."""
    sign, num = ("-" if num < 0 else ""), abs(num)
    top = (body if num == 1 and body else f"{num}{body}")
    return sign + (top if den == 1 else rf"\frac{{{top}}}{{{den}}}")


def exact_latex(x, *, factor=False):
    """An exact value {"a": [n, d], "b": [n, d], "r": r} of the exercises as LaTeX; `factor` wraps
    sums and negative numbers in parentheses (for a product)."""
    (an, ad), (bn, bd), r = x["a"], x["b"], x["r"]
    root = rf"\sqrt{{{r}}}"
    if bn == 0 or r == 1:
        out = _frac(an, ad)
    elif an == 0:
        out = _frac(bn, bd, root)
    else:
        b = _frac(bn, bd, root)
        out = _frac(an, ad) + (b if b.startswith("-") else "+" + b)
    if factor and (out.startswith("-") or (bn != 0 and an != 0 and r != 1)):
        return rf"\left({out}\right)"
    return out


def angle_latex(a):
    """An angle {"pi": [n, d]} (n·π/d) as LaTeX."""
    n, d = a["pi"]
    return "0" if n == 0 else _frac(n, d, r"\pi")


def _col(xs):
    return r"\begin{bmatrix}" + r"\\ ".join(xs) + r"\end{bmatrix}"


def _rotation(c, s):
    return (r"\begin{bmatrix}" + f"{exact_latex(c)}&{_neg(s)}" + r"\\ " + f"{exact_latex(s)}&{exact_latex(c)}"
            + r"\end{bmatrix}")


def _neg(x):
    return exact_latex({"a": [-x["a"][0], x["a"][1]], "b": [-x["b"][0], x["b"][1]], "r": x["r"]})


def _rows(*rows):
    """Rows of one display formula, aligned at their &."""
    return r"\begin{aligned}" + r"\\ ".join(rows) + r"\end{aligned}"


def worked_latex(prob):
    """The worked answer, one display formula per item, each broken into short aligned rows (a phone is
    ~20 symbols wide): the angles, R(pθ)q, R(sθ)k (or k), the score as a dot product, and the closed form
    (q·k) cos φ + (q₂k₁ − q₁k₂) sin φ with its numbers."""
    q, k = [str(v) for v in prob["q"]], [str(v) for v in prob["k"]]
    qr, kr = [exact_latex(x) for x in prob["q_rot"]], [exact_latex(x) for x in prob["k_rot"]]
    lines = [_rows(rf"\theta&={angle_latex(prob['theta'])}", rf"p\theta&={angle_latex(prob['angle_p'])}",
                   rf"s\theta&={angle_latex(prob['angle_s'])}"),
             _rows(rf"R(p\theta)\,q&={_rotation(prob['cos_p'], prob['sin_p'])}{_col(q)}", rf"&={_col(qr)}")]
    if prob["only_q"]:
        lines.append(rf"k={_col(k)}")
        score = r"(R(p\theta)q)^\top k"
        phi = (r"\varphi&=-p\theta", rf"&={angle_latex(prob['phi'])}")
    else:
        lines.append(_rows(rf"R(s\theta)\,k&={_rotation(prob['cos_s'], prob['sin_s'])}{_col(k)}", rf"&={_col(kr)}"))
        score = r"(R(p\theta)q)^\top R(s\theta)k"
        phi = (r"\varphi&=(s-p)\theta", rf"&={angle_latex(prob['phi'])}")
    if prob["phi"]["pi"] != prob["phi_wrapped"]["pi"]:
        phi = (phi[0], phi[1] + rf"\equiv {angle_latex(prob['phi_wrapped'])}")
    f = [exact_latex(x, factor=True) for x in prob["q_rot"] + prob["k_rot"]]
    lines.append(_rows(rf"&{score}", rf"&={f[0]}\cdot{f[2]}", rf"&\quad+{f[1]}\cdot{f[3]}",
                       rf"&={exact_latex(prob['score'])}"))
    c, s = exact_latex(prob["cos_phi"], factor=True), exact_latex(prob["sin_phi"], factor=True)
    sign = "+" if prob["cross"] >= 0 else "-"
    lines.append(_rows(rf"q\cdot k&={prob['dot']}", rf"q_2k_1-q_1k_2&={prob['cross']}", *phi))
    lines.append(_rows(rf"&{prob['dot']}\cos\varphi{sign}{abs(prob['cross'])}\sin\varphi",
                       rf"&={prob['dot']}\cdot{c}{sign}{abs(prob['cross'])}\cdot{s}",
                       rf"&={exact_latex(prob['closed'])}"))
    return lines
