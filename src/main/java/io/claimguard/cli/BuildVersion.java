package io.claimguard.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** The version the build wrote into {@code META-INF/build-info.properties} (Spring Boot's build-info goal). */
final class BuildVersion implements IVersionProvider {

    @Override
    public String[] getVersion() throws IOException {
        Properties build = new Properties();
        try (InputStream in = BuildVersion.class.getResourceAsStream("/META-INF/build-info.properties")) {
            if (in != null) {
                build.load(in);
            }
        }
        return new String[] {"ClaimGuard " + build.getProperty("build.version", "(version unknown: not built by Maven)")};
    }
}
