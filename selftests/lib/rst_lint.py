#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""rst_lint.py FILE...: parse each reStructuredText file with docutils as
Sphinx would read it (a warning or error is printed as FILE:LINE: ...),
and check that every :doc: target and every figure or image exists.
Sphinx's directives docutils does not know (toctree) are accepted, their
entries checked as :doc: targets. Exits 1 if anything was printed."""
import io
import os
import re
import sys

import docutils.core
from docutils import nodes
from docutils.parsers.rst import Directive, directives, roles

problems = []
current = {}


def doc_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    target = re.sub(r'^.*<(.*)>$', r'\1', text).strip()
    current['docs'].append((lineno, target))
    return [nodes.literal(rawtext, text)], []


class Toctree(Directive):
    has_content = True
    option_spec = {'maxdepth': directives.nonnegative_int,
                   'caption': directives.unchanged}

    def run(self):
        for i, entry in enumerate(self.content):
            if entry.strip():
                current['docs'].append((self.lineno + i, entry.strip()))
        return []


roles.register_local_role('doc', doc_role)
directives.register_directive('toctree', Toctree)

for path in sys.argv[1:]:
    current['docs'] = []
    err = io.StringIO()
    with open(path, encoding='utf-8') as f:
        tree = docutils.core.publish_doctree(
            f.read(), source_path=path,
            settings_overrides={'warning_stream': err, 'report_level': 2,
                                'halt_level': 5})
    problems += [l for l in err.getvalue().splitlines()
                 if l.startswith(path + ':')]
    here = os.path.dirname(path)
    for lineno, target in current['docs']:
        if not os.path.exists(os.path.join(here, target + '.rst')):
            problems.append(f'{path}:{lineno}: :doc: target {target!r} '
                            'does not exist')
    for img in tree.findall(nodes.image):
        if not os.path.exists(os.path.join(here, img['uri'])):
            problems.append(f'{path}:{img.line or 0}: image {img["uri"]!r} '
                            'does not exist')

if problems:
    print('\n'.join(problems))
sys.exit(1 if problems else 0)
