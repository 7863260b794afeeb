/* fileio's outputs: which file an output may replace, and how (issue 27). */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "fileio.h"
#include "slog.h"

static char dir[] = "/tmp/fs-fileio-XXXXXX";

static const char *at(const char *name)
{
	static char p[8][300];
	static int k;
	k = (k + 1) % 8;
	snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
	return p[k];
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int entries(void)
{
	char cmd[400];
	snprintf(cmd, sizeof cmd, "test $(ls -A %s | wc -l) -eq 0", dir);
	int n = 0;
	for (int k = 0; k < 64; k++) {
		snprintf(cmd, sizeof cmd, "test $(ls -A %s | wc -l) -eq %d", dir, k);
		if (system(cmd) == 0) {
			n = k;
			break;
		}
	}
	return n;
}

/* A link of the user's own is followed for a file rewritten whole (the
 * config, the metrics file): its target is replaced, the link kept, a
 * chain of links and a dangling one too; an output the user names with
 * --force (FILE_NEW) never goes through one. */
static void own_links_should_be_followed_only_for_own_files(void)
{
	char real[300], err[600];
	put(at("target"), "old\n");
	CHECK(symlink("target", at("link")) == 0);
	CHECK(symlink("link", at("chain")) == 0);
	CHECK(symlink("missing", at("dangling")) == 0);
	CHECK(fileio_may_replace(at("link"), FILE_OWN, false, real, sizeof real, err, sizeof err));
	CHECK_STR(real, at("target"));
	CHECK(fileio_may_replace(at("chain"), FILE_OWN, false, real, sizeof real, err, sizeof err));
	CHECK_STR(real, at("target"));
	CHECK(fileio_may_replace(at("dangling"), FILE_OWN, false, real, sizeof real, err, sizeof err));
	CHECK_STR(real, at("missing"));
	CHECK(!fileio_may_replace(at("link"), FILE_NEW, true, NULL, 0, err, sizeof err) &&
	      strstr(err, "is a symbolic link"));
	/* written through: the link stays a link, the target gets the text */
	FileTmp t;
	FILE *f = fileio_create(at("chain"), FILE_OWN, false, &t, err, sizeof err);
	CHECK(f && fputs("new\n", f) >= 0 && fileio_commit(f, &t, true, err, sizeof err));
	/* a cache entry is never written through a link, even the user's own:
	 * refused, the link and its target as they were */
	CHECK(!fileio_may_replace(at("link"), FILE_CACHE, false, NULL, 0, err, sizeof err) &&
	      strstr(err, "a cache is never written through"));
	CHECK(!fileio_write(at("link"), "cache\n", 6));
	struct stat st;
	CHECK(lstat(at("chain"), &st) == 0 && S_ISLNK(st.st_mode));
	CHECK(lstat(at("link"), &st) == 0 && S_ISLNK(st.st_mode));
	size_t n;
	char *text = fileio_read(at("target"), 100, &n, err, sizeof err);
	CHECK(text && !strcmp(text, "new\n"));
	free(text);
	/* a loop of links: refused with why, never followed forever */
	CHECK(symlink("loop-b", at("loop-a")) == 0 && symlink("loop-a", at("loop-b")) == 0);
	CHECK(!fileio_may_replace(at("loop-a"), FILE_OWN, false, NULL, 0, err, sizeof err) &&
	      strstr(err, "symbolic links"));
	system("rm -f /tmp/fs-fileio-*/target /tmp/fs-fileio-*/link /tmp/fs-fileio-*/chain "
	       "/tmp/fs-fileio-*/dangling /tmp/fs-fileio-*/loop-a /tmp/fs-fileio-*/loop-b");
	CHECK(entries() == 0);
}

/* Only a regular file is replaced; an existing one without force only when
 * flopscope rewrites it whole; never an input or the live log. */
static void outputs_should_refuse_what_they_may_not_replace(void)
{
	char err[600];
	CHECK(!fileio_may_replace("/dev/null", FILE_OWN, true, NULL, 0, err, sizeof err) &&
	      strstr(err, "not a regular file (a device)"));
	CHECK(!fileio_may_replace(dir, FILE_OWN, true, NULL, 0, err, sizeof err) && strstr(err, "a folder"));
	CHECK(mkfifo(at("fifo"), 0600) == 0);
	CHECK(!fileio_may_replace(at("fifo"), FILE_NEW, true, NULL, 0, err, sizeof err) && strstr(err, "a FIFO"));
	put(at("old"), "x");
	CHECK(!fileio_may_replace(at("old"), FILE_NEW, false, NULL, 0, err, sizeof err) &&
	      strstr(err, "exists already: --force replaces it"));
	CHECK(fileio_may_replace(at("old"), FILE_NEW, true, NULL, 0, err, sizeof err));
	CHECK(fileio_may_replace(at("old"), FILE_OWN, false, NULL, 0, err, sizeof err));
	/* read by this process: never an output, whatever the kind or force */
	LineReader r;
	CHECK(fileio_lines_open(&r, at("old"), 100, err, sizeof err));
	fileio_lines_close(&r);
	CHECK(!fileio_may_replace(at("old"), FILE_OWN, true, NULL, 0, err, sizeof err) &&
	      strstr(err, "is the input"));
	CHECK(link(at("old"), at("hard")) == 0); /* the same file by another name */
	CHECK(!fileio_may_replace(at("hard"), FILE_NEW, true, NULL, 0, err, sizeof err) &&
	      strstr(err, "is the input"));
	SessionLog l;
	CHECK(!slog_open(&l, at("hard"), SLOG_REPLACE, err, sizeof err) && strstr(err, "is the input"));
	/* the live log: never replaced by another output */
	CHECK(slog_open(&l, at("live.jsonl"), SLOG_NEW, err, sizeof err));
	CHECK(!fileio_may_replace(at("live.jsonl"), FILE_OWN, true, NULL, 0, err, sizeof err) &&
	      strstr(err, "is the session log"));
	slog_close(&l);
	fileio_forget_noted();
	CHECK(fileio_may_replace(at("old"), FILE_OWN, true, NULL, 0, err, sizeof err));
	system("rm -f /tmp/fs-fileio-*/fifo /tmp/fs-fileio-*/old /tmp/fs-fileio-*/hard /tmp/fs-fileio-*/live.jsonl");
}

/* The temporary: a new name beside the file, gone after a commit and after
 * a failure; the file keeps its mode; a failed write leaves the old file. */
static void commit_should_leave_no_temporary(void)
{
	char err[600];
	FileTmp t;
	put(at("out"), "old\n");
	chmod(at("out"), 0640);
	FILE *f = fileio_create(at("out"), FILE_OWN, false, &t, err, sizeof err);
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK(strncmp(t.tmp, at(".out."), strlen(at(".out."))) == 0);
	struct stat st;
	CHECK(lstat(t.tmp, &st) == 0 && S_ISREG(st.st_mode));
	fputs("half", f);
	CHECK(!fileio_commit(f, &t, false, err, sizeof err)); /* a failure: the old file stays */
	CHECK(entries() == 1);
	size_t n;
	char *text = fileio_read(at("out"), 100, &n, err, sizeof err);
	CHECK(text && !strcmp(text, "old\n"));
	free(text);
	f = fileio_create(at("out"), FILE_OWN, false, &t, err, sizeof err);
	CHECK(f != NULL);
	if (!f)
		return;
	fputs("new\n", f);
	CHECK(fileio_commit(f, &t, true, err, sizeof err));
	CHECK(entries() == 1);
	CHECK(stat(at("out"), &st) == 0 && (st.st_mode & 0777) == 0640);
	text = fileio_read(at("out"), 100, &n, err, sizeof err);
	CHECK(text && !strcmp(text, "new\n"));
	free(text);
	unlink(at("out"));
}

/* A log never goes through a link to a file, --force or not; a link of the
 * user's to a device is followed (/dev/stdout is such a link). */
static void logs_should_not_go_through_links_to_files(void)
{
	char err[600];
	SessionLog l;
	put(at("victim"), "keep\n");
	CHECK(symlink(at("victim"), at("log.jsonl")) == 0);
	for (int how = SLOG_NEW; how <= SLOG_REPLACE; how++)
		CHECK(!slog_open(&l, at("log.jsonl"), (SlogMode)how, err, sizeof err) && strstr(err, "symbolic link"));
	size_t n;
	char *text = fileio_read(at("victim"), 100, &n, err, sizeof err);
	CHECK(text && !strcmp(text, "keep\n"));
	free(text);
	CHECK(symlink("/dev/null", at("null.jsonl")) == 0);
	CHECK(slog_open(&l, at("null.jsonl"), SLOG_REPLACE, err, sizeof err));
	CHECK(slog_write_restart(&l, 1.0));
	slog_close(&l);
	system("rm -f /tmp/fs-fileio-*/victim /tmp/fs-fileio-*/log.jsonl /tmp/fs-fileio-*/null.jsonl");
}

/* A message about a path of thousands of bytes keeps its reason: the path
 * is shown by its start and end (issue 27: the reason was cut off). */
static void long_paths_should_keep_the_reason(void)
{
	char path[4050], err[4400];
	memset(path, 'a', sizeof path - 1);
	path[0] = '/';
	for (size_t i = 200; i < sizeof path - 1; i += 200)
		path[i] = '/';
	path[sizeof path - 1] = '\0';
	size_t n;
	CHECK(fileio_read(path, 100, &n, err, sizeof err) == NULL);
	const char *why = ": No such file or directory";
	CHECK(strlen(err) > strlen(why) && !strcmp(err + strlen(err) - strlen(why), why));
	CHECK(strlen(err) < 400 && strstr(err, "...") != NULL);
	CHECK(!strcmp(fileio_shown("/short/path"), "/short/path"));
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(own_links_should_be_followed_only_for_own_files);
	RUN(outputs_should_refuse_what_they_may_not_replace);
	RUN(commit_should_leave_no_temporary);
	RUN(logs_should_not_go_through_links_to_files);
	RUN(long_paths_should_keep_the_reason);
	rmdir(dir);
	return CHECK_DONE();
}
