package io.claimguard.architecture;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ArchitectureTest {

    private static final String SERVICE = "io.claimguard";
    private static final String FIXTURE = "io.claimguard.architecture.fixture";

    private static final JavaClasses SERVICE_CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(SERVICE);

    @Test
    @DisplayName("Every package of the service uses only the packages the architecture allows it")
    void packagesKeepToTheirLayers() {
        Architecture.layers(SERVICE).check(SERVICE_CLASSES);
    }

    @Test
    @DisplayName("No package of the service uses one that uses it back")
    void noPackageCycles() {
        Architecture.noCycles(SERVICE).check(SERVICE_CLASSES);
    }

    @Test
    @DisplayName("The domain core uses no Camel, Spring, JMS, JDBC or metrics")
    void domainIsPlainJava() {
        Architecture.plainDomain(SERVICE).check(SERVICE_CLASSES);
    }

    @Test
    @DisplayName("The Merkle tree uses no Camel, Spring, JMS, JDBC or metrics")
    void merkleIsPlainJava() {
        Architecture.plainMerkle(SERVICE).check(SERVICE_CLASSES);
    }

    /**
     * The fixture breaks each rule once: its domain imports Camel, its merkle Spring, and its pipeline and verify use
     * each other.
     */
    @Test
    @DisplayName("The same rules fail on a fixture with Camel in domain, Spring in merkle and a package cycle")
    void rulesCatchABrokenArchitecture() {
        JavaClasses broken = new ClassFileImporter().importPackages(FIXTURE);

        assertThatThrownBy(() -> Architecture.plainDomain(FIXTURE).check(broken))
                .hasMessageContaining("fixture.domain.CamelAwareRule")
                .hasMessageContaining("org.apache.camel.Exchange");
        assertThatThrownBy(() -> Architecture.plainMerkle(FIXTURE).check(broken))
                .hasMessageContaining("fixture.merkle.SpringAwareTree")
                .hasMessageContaining("org.springframework.util.DigestUtils");
        assertThatThrownBy(() -> Architecture.noCycles(FIXTURE).check(broken))
                .hasMessageContaining("Cycle detected")
                .hasMessageContaining("pipeline")
                .hasMessageContaining("verify");
        assertThatThrownBy(() -> Architecture.layers(FIXTURE).check(broken))
                .hasMessageContaining("fixture.pipeline.SharedVocabulary")
                .hasMessageContaining("fixture.verify.Step");
        for (ArchRule rule : Architecture.all(FIXTURE)) {
            assertThatThrownBy(() -> rule.check(broken)).as(rule.getDescription()).isInstanceOf(AssertionError.class);
        }
    }
}
