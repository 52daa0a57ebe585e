package io.claimguard.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RedriveTest {

    @Test
    void aNumberOrItsTextNamesADeadLetter() {
        assertThat(Redrive.parse(42L)).isEqualTo(new Redrive.Link(42L, null));
        assertThat(Redrive.parse(42)).isEqualTo(new Redrive.Link(42L, null));
        assertThat(Redrive.parse(" 42 ")).isEqualTo(new Redrive.Link(42L, null));
        assertThat(Redrive.parse(null)).isEqualTo(Redrive.Link.NONE);
    }

    @Test
    void anythingElseNamesNoneAndSaysWhy() {
        for (Object value : new Object[] {"dead letter 7", "", 0L, -3, "4.5", 4.0, "99999999999999999999"}) {
            Redrive.Link link = Redrive.parse(value);
            assertThat(link.deadLetterId()).as(String.valueOf(value)).isNull();
            assertThat(link.problem()).as(String.valueOf(value)).startsWith(Redrive.PROPERTY + " ");
        }
    }
}
