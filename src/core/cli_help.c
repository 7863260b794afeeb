/* cli_help: --help, the option names and the bash and zsh completions,
 * each written from the option and mode tables (cli.c). Pure. */
#include "cli.h"
#include "cli_impl.h"

#include <stdio.h>
#include <string.h>

#include "error.h"
#include "peak.h"
#include "workload.h"

/* ---- --help, from the tables ------------------------------------------- */

typedef struct Text {
	char *out;
	size_t len, at;
} Text;

static void put(Text *t, const char *s, size_t n)
{
	for (size_t k = 0; k < n; k++, t->at++)
		if (t->at + 1 < t->len)
			t->out[t->at] = s[k];
	if (t->len)
		t->out[t->at + 1 < t->len ? t->at : t->len - 1] = '\0';
}

static void puts_(Text *t, const char *s)
{
	put(t, s, strlen(s));
}

enum { HELP_WIDTH = 78, HELP_TEXT_COL = 21 };

/* text with its placeholders filled from the tables: "%W" the workloads'
 * names, "%K" the config file's keys, "%T" the check's thresholds of the
 * peak, "%B" its threshold of a baseline. */
static void help_expand(const char *in, char *text, size_t len)
{
	size_t at = 0;
	text[0] = '\0';
	for (const char *p = in; *p && at + 1 < len; p++) {
		char fill[512] = "";
		if (p[0] == '%' && p[1] == 'W')
			workload_names(fill, sizeof fill);
		else if (p[0] == '%' && p[1] == 'K')
			cli_config_key_names(fill, sizeof fill);
		else if (p[0] == '%' && p[1] == 'T')
			peak_thresholds_text(fill, sizeof fill, "");
		else if (p[0] == '%' && p[1] == 'B')
			snprintf(fill, sizeof fill, "%g", CLI_DEFAULT_THRESHOLD_PCT);
		else {
			text[at++] = *p;
			text[at] = '\0';
			continue;
		}
		int n = snprintf(text + at, len - at, "%s", fill);
		at = n > 0 && (size_t)n < len - at ? at + (size_t)n : len - 1;
		p++;
	}
}

/* text's words from column col, wrapped at HELP_WIDTH, each new line
 * indented to indent; the column it ends at. */
static size_t wrap(Text *t, const char *text, size_t col, size_t indent)
{
	for (const char *p = text; *p;) {
		size_t word = strcspn(p, " ");
		if (col > indent && col + 1 + word > HELP_WIDTH) {
			puts_(t, "\n");
			for (col = 0; col < indent; col++)
				puts_(t, " ");
		} else if (col > indent && p != text) {
			puts_(t, " ");
			col++;
		}
		put(t, p, word);
		col += word;
		p += word;
		while (*p == ' ')
			p++;
	}
	return col;
}

/* One form: the usage at column 2, the text (help_expand) wrapped at
 * HELP_WIDTH from HELP_TEXT_COL. */
static void help_form(Text *t, const HelpForm *f)
{
	char text[1024];
	help_expand(f->text, text, sizeof text);
	puts_(t, "  ");
	puts_(t, f->usage);
	size_t col = 2 + strlen(f->usage);
	if (col + 2 > HELP_TEXT_COL) {
		puts_(t, "  ");
		col += 2;
	} else {
		for (; col < HELP_TEXT_COL; col++)
			puts_(t, " ");
	}
	wrap(t, text, col, HELP_TEXT_COL);
	puts_(t, "\n");
}

static const char help_head[] =
	"usage: flopscope [options] [-N] [NAME]\n"
	"\n"
	"Measures the floating-point throughput a Vulkan compute device delivers with\n"
	"the adaptive 20 ms loop: start at 1 workgroup, multiply by 10 while a dispatch\n"
	"takes less than target/10, then rescale so each dispatch takes the target time.\n";

static const char help_tail[] =
	"\n"
	"Dashboard keys:\n"
	"  up/down j/k, mouse, Enter   pick a device (picker); space marks several\n"
	"  space  pause/resume     r  restart the loop      d, Esc  back one level\n"
	"  + / -  target: next round value (1 2 5 10 20 50 ... ms)\n"
	"  z      whole session / window   t  next theme    1-9  a device in full\n"
	"  w      next workload (fp32 ... h2h, those the device runs)\n"
	"  F1 ?   help             F10 q  quit (Ctrl-C too)\n"
	"  < / >  replay speed /2, x2, max   left/right  10 s back, on   e End  the end\n"
	"  .      one sample on, paused (--replay)\n";

/* "Exit status: 0 success, ..." from the exit table (error.h) */
static void help_exits(Text *t)
{
	char all[1024] = "Exit status:";
	size_t at = strlen(all) + 1;
	all[at - 1] = ' ';
#define STATUS_WORDS(code, words, check) \
	at += (size_t)snprintf(all + at, at < sizeof all ? sizeof all - at : 0, "%d %s, ", code, words);
	STATUS_ROWS(STATUS_WORDS)
#undef STATUS_WORDS
	if (at < sizeof all)
		snprintf(all + at, sizeof all - at, "128+N ended by signal N; where several hold, the signal, then "
		         STATUS_PRECEDENCE " (man flopscope).");
	puts_(t, "\n");
	wrap(t, all, 0, 0);
	puts_(t, "\n");
}

size_t cli_help_text(char *out, size_t len)
{
	Text t = { out, len, 0 };
	if (len)
		out[0] = '\0';
	puts_(&t, help_head);
	for (int s = H_DEVICE; s < H_COUNT; s++) {
		puts_(&t, "\n");
		puts_(&t, cli_section_titles[s]);
		puts_(&t, "\n");
		for (size_t i = 0; i < cli_option_count; i++)
			for (size_t f = 0; f < sizeof cli_option_specs[i].help / sizeof *cli_option_specs[i].help; f++)
				if (cli_option_specs[i].help[f].section == (HelpSection)s)
					help_form(&t, &cli_option_specs[i].help[f]);
	}
	puts_(&t, help_tail);
	help_exits(&t);
	return t.at;
}

/* The placeholder of an option's value in its first help form ("FILE" of
 * "--analyze FILE"), into out; "" when none. */
static void placeholder(const OptionSpec *s, char *out, size_t len)
{
	const char *form = s->help[0].usage ? s->help[0].usage : "";
	const char *sp = strchr(form, ' ');
	snprintf(out, len, "%s", sp ? sp + 1 : "");
	out[strcspn(out, " ")] = '\0';
}

/* What an option's value is, for the completions: a file or folder, a
 * word from a list the generator writes itself, or anything else. */
typedef enum ValueKind { V_NONE, V_FILE, V_WORD, V_OTHER } ValueKind;

static ValueKind value_kind(const OptionSpec *s)
{
	static const char *const file_words[] = { "FILE", "PATH", "A", "DIR", "OUT", "OUT.svg" };
	if (!s->value)
		return V_NONE;
	if (!strcmp(s->name, "--workload") || !strcmp(s->name, "--format") || !strcmp(s->name, "--theme") ||
	    !strcmp(s->name, "--completion"))
		return V_WORD;
	char ph[32];
	placeholder(s, ph, sizeof ph);
	for (size_t k = 0; k < sizeof file_words / sizeof *file_words; k++)
		if (!strcmp(ph, file_words[k]))
			return V_FILE;
	return V_OTHER;
}

/* The words a V_WORD option offers, space-separated: the workloads (their
 * table), the formats, the shells, the themes given. */
static void put_words(Text *t, const OptionSpec *s, const char *const *themes, size_t nthemes)
{
	if (!strcmp(s->name, "--workload")) {
		for (int w = 0; w < WORKLOAD_TYPE_COUNT; w++) {
			puts_(t, w ? " " : "");
			puts_(t, workload_info[w].name);
		}
	} else if (!strcmp(s->name, "--format")) {
		puts_(t, "table csv json");
	} else if (!strcmp(s->name, "--completion")) {
		puts_(t, "bash zsh");
	} else {
		/* a theme's name is a file's: one that is not a plain word (a quote,
		 * a space) is left out of the script, never quoted into it */
		bool first = true;
		for (size_t k = 0; k < nthemes; k++) {
			if (!themes[k][0] || strspn(themes[k], "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-+") !=
			                         strlen(themes[k]))
				continue;
			puts_(t, first ? "" : " ");
			puts_(t, themes[k]);
			first = false;
		}
	}
}

/* The devices --list shows now, as the completions offer them: -N, the
 * name's first word, GPU-UUID, the PCI address (a sed script over its JSON
 * Lines; "null" where an entry has no PCI address) */
#define LIST_DEVICES_SED                                                                                        \
	"--list --format json --no-config 2>/dev/null | sed -n "                                                \
	"'s/.*\"entry\":\\([0-9]*\\).*\"device\":\"\\([^ \"]*\\)[^\"]*\".*\"uuid\":\"\\([^\"]*\\)\",\"pci_bus_id\":" \
	"\"\\{0,1\\}\\([^\",]*\\).*/-\\1 \\2 GPU-\\3 \\4/p'"

size_t cli_completion_bash(char *out, size_t len, const char *const *themes, size_t nthemes)
{
	Text t = { out, len, 0 };
	if (len)
		out[0] = '\0';
	puts_(&t, "# bash completion for flopscope, written by `flopscope --completion bash` from its\n"
	          "# option and workload tables. Load it with: source <(flopscope --completion bash)\n"
	          "# COMPREPLY gets the words of $1 that start with $cur, taken literally:\n"
	          "# never through compgen -W, which expands $(...) in a word (a device's name)\n"
	          "_flopscope_words() {\n"
	          "\tlocal -a ws\n"
	          "\tlocal w\n"
	          "\tread -r -d '' -a ws <<<\"$1\"\n"
	          "\tfor w in \"${ws[@]}\"; do [[ $w == \"$cur\"* ]] && COMPREPLY+=(\"$w\"); done\n"
	          "}\n"
	          "# the files that start with $cur, one a word whatever spaces they hold\n"
	          "_flopscope_files() {\n"
	          "\tlocal f\n"
	          "\tcompopt -o filenames 2>/dev/null\n"
	          "\twhile IFS= read -r f; do COMPREPLY+=(\"$f\"); done < <(compgen -f -- \"$cur\")\n"
	          "}\n"
	          "_flopscope() {\n"
	          "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	          "\tCOMPREPLY=()\n"
	          "\tcase $prev in\n");
	/* the options that take a word of a list: the words, and for a theme
	 * a file too */
	for (size_t i = 0; i < cli_option_count; i++) {
		const OptionSpec *s = &cli_option_specs[i];
		if (s->positional || value_kind(s) != V_WORD)
			continue;
		puts_(&t, "\t");
		puts_(&t, s->name);
		puts_(&t, ") _flopscope_words '");
		put_words(&t, s, themes, nthemes);
		puts_(&t, !strcmp(s->name, "--theme") ? "'; _flopscope_files; return ;;\n" : "'; return ;;\n");
	}
	/* options that take a file or a folder, then those that take anything else */
	for (int files = 1; files >= 0; files--) {
		bool any = false;
		for (size_t i = 0; i < cli_option_count; i++) {
			const OptionSpec *s = &cli_option_specs[i];
			if (s->positional || value_kind(s) != (files ? V_FILE : V_OTHER))
				continue;
			puts_(&t, any ? "|" : "\t");
			puts_(&t, s->name);
			any = true;
		}
		if (any)
			puts_(&t, files ? ") _flopscope_files; return ;;\n"
			                : ") return ;; # a number, a size, a list: nothing to offer\n");
	}
	puts_(&t, "\tesac\n\tif [[ $cur == -* ]]; then\n\t\t_flopscope_words '");
	bool first = true;
	for (size_t i = 0; i < cli_option_count; i++) {
		if (cli_option_specs[i].positional)
			continue;
		puts_(&t, first ? "" : " ");
		puts_(&t, cli_option_specs[i].name);
		first = false;
	}
	puts_(&t, "'\n\t\t[[ $cur =~ ^-[0-9]*$ ]] || return\n\tfi\n"
	          "\t# the devices --list shows now: -N, the UUID, the PCI address, the name's first word\n"
	          "\tlocal devs\n"
	          "\tdevs=$(\"${COMP_WORDS[0]}\" " LIST_DEVICES_SED ")\n"
	          "\t_flopscope_words \"${devs//null/}\"\n"
	          "}\ncomplete -F _flopscope flopscope\n");
	return t.at;
}

/* The start of an option's help text as a zsh description: up to the first
 * ';', '(' or 60 bytes (at a word), with _arguments' and the single quote's
 * specials escaped. */
static void zsh_description(Text *t, const OptionSpec *s)
{
	const char *txt = s->help[0].text ? s->help[0].text : "";
	size_t n = strcspn(txt, ";(%");
	if (n > 60) {
		n = 60;
		while (n > 30 && txt[n] != ' ')
			n--;
	}
	while (n && (txt[n - 1] == ' ' || txt[n - 1] == ','))
		n--;
	for (size_t i = 0; i < n; i++) {
		char c = txt[i];
		if (c == '\'')
			puts_(t, "'\\''");
		else if (c == '[' || c == ']' || c == ':' || c == '\\') {
			put(t, "\\", 1);
			put(t, &c, 1);
		} else
			put(t, &c, 1);
	}
}

size_t cli_completion_zsh(char *out, size_t len, const char *const *themes, size_t nthemes)
{
	Text t = { out, len, 0 };
	if (len)
		out[0] = '\0';
	puts_(&t, "#compdef flopscope\n"
	          "# zsh completion for flopscope, written by `flopscope --completion zsh` from its\n"
	          "# option and workload tables: put it in a folder of $fpath as _flopscope.\n"
	          "\n"
	          "# the devices --list shows now: -N, the name's first word, the UUID, the PCI address\n"
	          "_flopscope_devices() {\n"
	          "\tlocal -a devs\n"
	          "\tdevs=(${=${\"$(\"${words[1]}\" " LIST_DEVICES_SED ")\"//null/}})\n"
	          "\tcompadd -a devs\n"
	          "}\n"
	          "\n"
	          "_flopscope() {\n"
	          "\t_arguments \\\n");
	for (size_t i = 0; i < cli_option_count; i++) {
		const OptionSpec *s = &cli_option_specs[i];
		if (s->positional)
			continue;
		puts_(&t, "\t\t'");
		puts_(&t, s->name);
		puts_(&t, "[");
		zsh_description(&t, s);
		puts_(&t, "]");
		char ph[32];
		placeholder(s, ph, sizeof ph);
		switch (value_kind(s)) {
		case V_NONE:
			break;
		case V_FILE:
			puts_(&t, ":");
			puts_(&t, ph);
			puts_(&t, !strcmp(ph, "DIR") ? ":_files -/" : ":_files");
			break;
		case V_OTHER:
			puts_(&t, ":");
			puts_(&t, ph);
			puts_(&t, ": ");
			break;
		case V_WORD:
			puts_(&t, ":");
			puts_(&t, ph);
			puts_(&t, ":(");
			put_words(&t, s, themes, nthemes);
			puts_(&t, ")");
			break;
		}
		puts_(&t, "' \\\n");
	}
	puts_(&t, "\t\t'*:device:_flopscope_devices'\n"
	          "}\n"
	          "\n"
	          "_flopscope \"$@\"\n");
	return t.at;
}

size_t cli_option_names(const char **names, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i < cli_option_count; i++)
		if (!cli_option_specs[i].positional && n < cap)
			names[n++] = cli_option_specs[i].name;
	return n;
}

