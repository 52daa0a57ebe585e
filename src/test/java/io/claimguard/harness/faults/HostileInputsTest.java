package io.claimguard.harness.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.harness.faults.HostileInputs.Channel;
import io.claimguard.harness.faults.HostileInputs.Entry;
import io.claimguard.harness.faults.HostileInputs.Expect;
import io.claimguard.harness.faults.HostileInputs.HostileInput;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The hostile run's inputs are what its accounting assumes: names a file system takes, each case, and the rule. */
class HostileInputsTest {

    private static final long SEED = 20261204L;

    private static HostileInputs generate() {
        return HostileInputs.generate(1_500, SEED, Path.of("examples"), Path.of("/nonexistent-outside"));
    }

    private static List<HostileInput> files(HostileInputs inputs) {
        return inputs.inputs().stream().filter(input -> input.channel() == Channel.FILE).toList();
    }

    @Test
    void theSameSeedGivesTheSameInputs() {
        HostileInputs first = generate();
        HostileInputs second = generate();

        assertThat(first.inputs()).hasSize(1_500);
        assertThat(second.inputs().stream().map(HostileInput::sha256).toList())
                .isEqualTo(first.inputs().stream().map(HostileInput::sha256).toList());
        assertThat(files(second).stream().map(file -> new String(file.name(), StandardCharsets.ISO_8859_1)).toList())
                .isEqualTo(files(first).stream().map(file -> new String(file.name(), StandardCharsets.ISO_8859_1)).toList());
    }

    @Test
    void everyNameIsOneALinuxFileSystemTakesAndNamesAreUniqueByTheirBytes() {
        List<HostileInput> files = files(generate());

        assertThat(files).allSatisfy(file -> {
            assertThat(file.name().length).isBetween(1, 255);
            assertThat(file.name()).doesNotContain((byte) 0, (byte) '/');
            assertThat(new String(file.name(), StandardCharsets.ISO_8859_1)).isNotIn(".", "..", ".done", ".error");
        });
        assertThat(files.stream().map(file -> new String(file.name(), StandardCharsets.ISO_8859_1)).distinct())
                .hasSameSizeAs(files);
    }

    @Test
    void everyControlCharacterANameCanHoldIsUsedAndEveryCaseOfTheIssueComes() {
        List<HostileInput> files = files(generate());

        Set<Integer> controls = files.stream()
                .flatMapToInt(file -> new String(file.name(), StandardCharsets.ISO_8859_1).chars())
                .filter(c -> c < 0x20 || c == 0x7f).boxed().collect(Collectors.toSet());
        assertThat(controls).containsAll(IntStream.concat(IntStream.rangeClosed(1, 31), IntStream.of(127)).boxed().toList());
        assertThat(files.stream().map(HostileInput::nameCase).distinct()).contains("250 to 255 bytes", "backslash",
                "line break", "control character", "leading dash", "leading dot", "not UTF-8", "NFC", "NFD",
                "random bytes, *.json", "symbolic link out of the inbox", "FIFO named *.json");
        assertThat(files).filteredOn(file -> file.nameCase().equals("250 to 255 bytes"))
                .allSatisfy(file -> assertThat(file.name().length).isBetween(250, 255));
    }

    @Test
    void whatMustBecomeOfAFileFollowsTheDocumentedRule() {
        HostileInputs inputs = generate();

        assertThat(files(inputs)).allSatisfy(file -> {
            String asRead = file.nameAsRead();
            if (file.entry() != Entry.REGULAR) {
                assertThat(file.expect()).isEqualTo(Expect.SET_ASIDE);
                assertThat(file.body()).isEmpty();
            } else if (asRead.startsWith(".") || !asRead.endsWith(".json")) {
                assertThat(file.expect()).isEqualTo(Expect.IGNORED);
            } else {
                assertThat(file.expect()).isNotIn(Expect.IGNORED, Expect.SET_ASIDE);
            }
        });
        assertThat(inputs.lateCopies()).isNotEmpty().allSatisfy(copy -> assertThat(files(inputs))
                .anySatisfy(original -> {
                    assertThat(original.name()).isEqualTo(copy.name());
                    assertThat(original.body()).isEqualTo(copy.body());
                    assertThat(original.expect()).isEqualTo(Expect.AUDITED);
                }));
    }
}
