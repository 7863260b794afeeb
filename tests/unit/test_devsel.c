#include "check.h"
#include "devinfo.h"
#include "devsel.h"

/* The tutorial's machine (seed 002). */
static const char *const NAMES[] = {
	"Intel(R) UHD Graphics", "Quadro RTX 3000", "Quadro RTX 3000",
	"llvmpipe (LLVM 20.1.5, 256 bits)",
};
static const int RANK[] = { 1, 0, 0, 3 };

static int pick(const char *word, unsigned index, char *err)
{
	DevselQuery q = { word, index };
	return devsel_pick(NAMES, RANK, 4, &q, err, 256);
}

static void devsel_should_pick_entry_n_with_dash_n(void)
{
	char err[256];
	CHECK(pick(NULL, 1, err) == 0);
	CHECK(pick(NULL, 4, err) == 3);
}

static void devsel_should_pick_the_first_name_match(void)
{
	char err[256];
	CHECK(pick("llvm", 0, err) == 3);
	CHECK(pick("RTX", 0, err) == 1);
	CHECK(pick("rtx", 0, err) == 1);
	CHECK(pick("LLVMPIPE", 0, err) == 3);
}

static void devsel_should_pick_the_nth_match_with_both(void)
{
	char err[256];
	CHECK(pick("RTX", 2, err) == 2);
	CHECK(pick("RTX", 1, err) == 1);
}

static void devsel_should_refuse_out_of_range_and_no_match(void)
{
	char err[256];
	CHECK(pick(NULL, 5, err) == -1);
	CHECK(strstr(err, "device 5") != NULL);
	CHECK(pick("radeon", 0, err) == -1);
	CHECK(strstr(err, "radeon") != NULL);
	CHECK(pick("RTX", 3, err) == -1);
	CHECK(strstr(err, "only 2 devices") != NULL);
	DevselQuery q = { NULL, 0 };
	CHECK(devsel_pick(NAMES, RANK, 0, &q, err, sizeof err) == -1);
}

static void devsel_should_default_to_the_best_ranked_entry(void)
{
	char err[256];
	CHECK(pick(NULL, 0, err) == 1);
	DevselQuery q = { NULL, 0 };
	CHECK(devsel_pick(NAMES, NULL, 4, &q, err, sizeof err) == 0);
}

static void devsel_contains_should_ignore_case(void)
{
	CHECK(devsel_contains("llvmpipe", "PIPE"));
	CHECK(devsel_contains("abc", ""));
	CHECK(!devsel_contains("abc", "abcd"));
	CHECK(!devsel_contains("", "a"));
	CHECK(devsel_contains("aab", "ab"));
}

/* A cooperative-matrix shape in words, as --list --verbose prints it: the
 * H100's fp16 one, an int8 one, and types this build does not name. */
static void coopmat_shapes_should_be_said_in_words(void)
{
	char out[96];
	CoopMatShape fp16 = { 16, 8, 16, 0, 0, 1, 1, 3 };
	devinfo_coopmat_str(&fp16, out, sizeof out);
	CHECK_STR(out, "16x8x16 fp16*fp16+fp32->fp32 (subgroup)");
	CoopMatShape i8 = { 16, 8, 32, 3, 3, 5, 5, 3 };
	devinfo_coopmat_str(&i8, out, sizeof out);
	CHECK_STR(out, "16x8x32 int8*int8+int32->int32 (subgroup)");
	CoopMatShape bf = { 16, 16, 16, 1000141000, 1000141000, 1, 1, 2 };
	devinfo_coopmat_str(&bf, out, sizeof out);
	CHECK_STR(out, "16x16x16 bf16*bf16+fp32->fp32 (workgroup)");
	CHECK_STR(matrix_component_str(77), "other");
}

int main(void)
{
	RUN(coopmat_shapes_should_be_said_in_words);
	RUN(devsel_should_pick_entry_n_with_dash_n);
	RUN(devsel_should_pick_the_first_name_match);
	RUN(devsel_should_pick_the_nth_match_with_both);
	RUN(devsel_should_refuse_out_of_range_and_no_match);
	RUN(devsel_should_default_to_the_best_ranked_entry);
	RUN(devsel_contains_should_ignore_case);
	return CHECK_DONE();
}
