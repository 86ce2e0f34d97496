package io.logbloom.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * What {@code /loki/api/v1/status/buildinfo} reports, in Loki's JSON shape (its Go version field
 * carries the Java runtime version here). Read from {@code logbloom-build.properties}, which Maven
 * fills at build time; revision and branch come from {@code -Dbuild.revision} / {@code -Dbuild.branch}
 * and are {@code unknown} otherwise. Immutable.
 */
public record BuildInfo(String version, String revision, String branch, String buildUser, String buildDate,
        String goVersion) {
    private static final String RESOURCE = "/logbloom-build.properties";

    /** The build info packaged with this jar. */
    public static BuildInfo load() {
        Properties p = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("BUG: " + RESOURCE + " is missing from the classpath");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
        return new BuildInfo(p.getProperty("version"), p.getProperty("revision"), p.getProperty("branch"),
                p.getProperty("buildUser"), p.getProperty("buildDate"), "java" + Runtime.version());
    }
}
